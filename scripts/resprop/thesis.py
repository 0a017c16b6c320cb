"""What the ReSprop thesis (Goli, UBC 2020) states that the document compares with: its
figures, each quoted with its section or table, and the names of the claims in the summary."""

from reproduction_support import TARGET_TOLERANCE


LABEL = {"resnet18": "ResNet-18", "resnet34": "ResNet-34", "vgg16": "VGG-16",
         "wrn_50_2": "WRN-50-2"}

# Table 7.8 (ImageNet, 90 % reuse-sparsity): theoretical, GSCN+Baseline, GSCN+ReSprop;
# the last two are speed-ups over a GTX 1080 Ti GPU on the back-propagation convolutions.
TABLE_7_8 = {"resnet18": (9.83, 1.32, 8.6), "resnet34": (9.68, 1.81, 8.01),
             "vgg16": (9.34, 1.27, 7.21)}

# A public measurement of the GTX 1080 Ti Table 7.8 compares with: the whole backward pass
# at minibatch 16, cuDNN 5.1.10, Torch (github.com/jcjohnson/cnn-benchmarks, README: the
# "Backward (ms)" column of each network's GTX 1080 Ti row), in ms.
GPU_BACKWARD_MS = {"resnet18": 22.34, "resnet34": 34.60, "vgg16": 86.91}

GPU_BENCHMARK_BATCH = 16

# Table 6.1: unused Cartesian products (all 4 x 4 products unused) of SCNN's weight-gradient
# convolution, 64 PEs, F = I = 4 (§6.3.1).
TABLE_6_1 = {"resnet18": 64.91, "resnet34": 69.6}

SCNN_PES, SCNN_VECTORS, SCNN_BANKS = "8x8", "4x4", 32  # §6.3.1 (64 PEs, 4x4); SCNN A = 2.F.I

# §6.5 and §7.5.4 (Fig. 7.4): "adding predictor has made gradient of weight calculation about
# 2x faster"; §8: GSCN over SCNN on back-propagation with ReSprop.
PREDICTOR_SPEEDUP = 2.0

GSCN_OVER_SCNN = {"resnet18": 6.0, "resnet34": 5.5}

# §8, the sentence after: "It also achieves 8.7x and 7.1x speedup compared to the GTX 1080 Ti
# GPU" (ResNet-18, ResNet-34; with ReSprop, Fig. 7.4), the GPU of Table 7.8's rows.
GSCN_OVER_GPU_S8 = {"resnet18": 8.7, "resnet34": 7.1}

# Table 7.9: GSCN repeats its 8x8 PEs in 4 tiles, each with different samples (§6.5); the
# thesis's SCNN has "in total 64 PEs" (§6.3.1), as SCNN's own design (Parashar et al. 2017).
GSCN_TILES, SCNN_TILES = 4, 1

WHOLE_RUN = (2.5, 3.0, 2.7)  # §7.5.3: 2.5x to 3.0x, on average 2.7x (ImageNet, 90 % RS)

TOLERANCE = TARGET_TOLERANCE

GSCN_BATCH = 64              # §7.2: GSCN computes back-propagation for a mini-batch of 64

TRAIN_BATCH = 256            # §7.2: ImageNet, total mini-batch 256

# The claims of the summary after the setup (TargetSummary), one name each.
CLAIM_THEORY = "Table 7.8: theoretical back-propagation speed-up"

CLAIM_GSCN = "Table 7.8: GSCN+ReSprop over GSCN+Baseline"

CLAIM_WHOLE = "§7.5.3: whole-training speed-up (mean 2.7×)"

CLAIM_UNUSED = "Table 6.1: all-unused Cartesian products"

CLAIM_PREDICTOR = "§6.5, §7.5.4: the predictor's weight-gradient speed-up"

CLAIM_SCNN = "§8: GSCN over SCNN"

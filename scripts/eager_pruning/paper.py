"""What the Eager Pruning paper states that the document compares with: its figures, each
quoted with its section, and the names of the claims in the summary of targets."""

from reproduction_support import TARGET_TOLERANCE


LABEL = {"alexnet": "AlexNet", "resnet50": "ResNet-50", "googlenet": "GoogLeNet",
         "nin": "NIN", "resnet32_cifar": "ResNet-32 (CIFAR-10)", "lenet": "LeNet",
         "caffenet": "CaffeNet (FT)", "lstm_timit": "LSTM (TIMIT)"}

RC_TOLERANCE = TARGET_TOLERANCE

PAPER_OVER_CX = 1.91  # §5.4: "an average of 1.91x and 2.25x speedup over CX and FF"
PAPER_OVER_FF = 2.25

# Fig. 20 normalizes to "the ideal case of dense computation", "when all the PEs work
# without idleness" (§5.3): dense MACs over the PEs. §5.2: "all the designs use at least
# 2048 DSPs as their PEs" (eager_pruning_2048: 4 × 512; the CX baseline: 4 × 32 rows × 16).
PES = 2048

# Fig. 20(b): "our architecture for EP is the only one with > 1 speedup (1.19x CGM)".
FIG20_EP_CGM = 1.19

# Fig. 19, §5.3: "SCNN (0.88x and 1.72x on dense and sparse inference) and our design
# (0.84x and 1.86x)", each normalized to the ideal dense case as Fig. 20; inference is FP.
FIG19_EP_DENSE_CGM, FIG19_EP_SPARSE_CGM = 0.84, 1.86

SCNN_INPUT_ZEROS_FACTOR = 2

# §5.3: "SCNN (0.88x and 1.72x on dense and sparse inference)"; "the training speedup of SCNN
# and SD is dominated by KU, which is nearly 0 (0.05x and 0.03x) in Figure 21" (GoogLeNet
# trained with EP); §5.4: "If a hybrid architecture of SCNN and CX is applied to train by
# pipelining each phase, EP still wins by 1.51x."
PAPER_SCNN_DENSE_CGM, PAPER_SCNN_SPARSE_CGM = 0.88, 1.72

PAPER_SCNN_KU_GOOGLENET = 0.05

PAPER_OVER_HYBRID = 1.51

# The claims of the summary after the setup (TargetSummary), one name each.
CLAIM_RC = "Table 5: reduced computation (RC)"

CLAIM_OVER_CX = "§5.4: mean whole-run speed-up over CX"

CLAIM_OVER_FF = "§5.4: mean whole-run speed-up over FF"

CLAIM_FIG20 = "Fig. 20(b): EP's sparse training over the ideal dense (CGM)"

CLAIM_FIG19_SPARSE = "Fig. 19(b): EP's sparse inference over the ideal dense (CGM)"

CLAIM_FIG19_DENSE = "Fig. 19(a): EP's dense inference over the ideal dense (CGM)"

CLAIM_FIG19_SCNN_DENSE = "Fig. 19(a): SCNN's dense inference over the ideal dense (CGM)"

CLAIM_FIG19_SCNN_SPARSE = "Fig. 19(b): SCNN's sparse inference over the ideal dense (CGM)"

CLAIM_FIG21_SCNN_KU = "Fig. 21: SCNN's kernel update over the ideal dense (EP training)"

CLAIM_OVER_HYBRID = "§5.4: mean whole-run speed-up over SCNN (FP, BP) and CX (KU) in one design"

# §5.2, on the LSTM: "a new weight is loaded by each PE in every cycle. In this case, the
# number of PEs is determined by the bandwidth of the filter buffer, which is 128 in our
# design"; "When comparing to ESE, the other models also use 128 PEs."
LSTM_WEIGHTS_PER_CYCLE = 128

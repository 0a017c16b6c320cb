#!/usr/bin/env python3
"""Generate the shipped network library (workloads/*.yaml).

Standard library only; deterministic output; rerun after editing:

    python3 workloads/tools/generate_networks.py            # writes into workloads/
    python3 workloads/tools/generate_networks.py --out DIR  # writes elsewhere

Each network is described by a small builder function below that mirrors the
reference implementation (torchvision, the paper's table, or the authors'
code).  The builder tracks per-sample tensor shapes (channels x height x width)
with the output-size formula of docs/workload_format.md so that, e.g., the
groups of a depthwise conv can be set from its input channels, and it checks
every shape it produces (add inputs equal, concat spatial sizes equal, groups
dividing channels).  The YAML format is the contract in
docs/workload_format.md: one flow-style map per layer.
"""

import argparse
import os
import re
import sys

SCRIPT = "workloads/tools/generate_networks.py"
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
KEY_ORDER = ["name", "type", "inputs", "out_channels", "out_features", "kernel",
             "stride", "padding", "dilation", "groups", "global", "input_routers",
             "middle_routers", "output_routers", "hidden_size", "sequence_length"]


def _pair(v):
    return (v, v) if isinstance(v, int) else (v[0], v[1])


def _out(size, k, s, p, d=1):
    o = (size + 2 * p - d * (k - 1) - 1) // s + 1
    if o < 1:
        raise ValueError("non-positive output size")
    return o


class Net:
    """Accumulates layers and per-sample shapes of one network."""

    def __init__(self, name, description, source, comments=()):
        self.name = name
        self.description = description
        self.source = source
        self.comments = list(comments)
        self.inputs = []          # (name, c, h, w)
        self.layers = []          # list of dicts, in emission order
        self.shape = {}           # tensor name -> (c, h, w)

    # -- tensors ----------------------------------------------------------
    def input(self, name, c, h=1, w=1, gradient=False):
        self._new_name(name)
        self.inputs.append((name, c, h, w, gradient))
        self.shape[name] = (c, h, w)
        return name

    def _new_name(self, name):
        if not NAME_RE.match(name):
            raise ValueError("bad name %r" % name)
        if name in self.shape:
            raise ValueError("duplicate name %r in %s" % (name, self.name))

    def _add(self, name, typ, inputs, out_shape, **keys):
        self._new_name(name)
        for i in inputs:
            if i not in self.shape:
                raise ValueError("%s: unknown input %r" % (name, i))
        layer = {"name": name, "type": typ, "inputs": list(inputs)}
        layer.update({k: v for k, v in keys.items() if v is not None})
        self.layers.append(layer)
        self.shape[name] = out_shape
        return name

    # -- layer types ------------------------------------------------------
    def conv(self, name, x, out_channels, kernel, stride=1, padding=0, groups=1):
        c, h, w = self.shape[x]
        if c % groups or out_channels % groups:
            raise ValueError("%s: groups %d do not divide %d/%d" % (name, groups, c, out_channels))
        kr, ks = _pair(kernel)
        sr, ss = _pair(stride)
        pr, ps = _pair(padding)
        p, q = _out(h, kr, sr, pr), _out(w, ks, ss, ps)
        return self._add(name, "conv", [x], (out_channels, p, q),
                         out_channels=out_channels, kernel=kernel,
                         stride=stride if stride != 1 else None,
                         padding=padding if padding != 0 else None,
                         groups=groups if groups != 1 else None)

    def fc(self, name, x, out_features):
        return self._add(name, "fc", [x], (out_features, 1, 1), out_features=out_features)

    def clos_fc(self, name, x, out_features, input_routers, middle_routers, output_routers):
        """A Clos cascade (I, O, Ri, Rm, Ro) of CloNets §II; trainloop expands it."""
        c, h, w = self.shape[x]
        if (c * h * w) % input_routers or out_features % output_routers:
            raise ValueError("%s: routers do not divide %d inputs / %d outputs" %
                             (name, c * h * w, out_features))
        return self._add(name, "clos_fc", [x], (out_features, 1, 1), out_features=out_features,
                         input_routers=input_routers, middle_routers=middle_routers,
                         output_routers=output_routers)

    def matmul(self, name, x, out_features):
        """One out_features x C matrix applied at every position (every time step)."""
        c, h, w = self.shape[x]
        return self._add(name, "matmul", [x], (out_features, h, w), out_features=out_features)

    def lstm(self, name, x, hidden_size):
        """An LSTM over the input's height (time steps); trainloop expands it."""
        c, h, w = self.shape[x]
        if w != 1:
            raise ValueError("%s: a sequence is features x steps x 1, not %dx%dx%d" % (name, c, h, w))
        return self._add(name, "lstm", [x], (hidden_size, h, 1), hidden_size=hidden_size,
                         sequence_length=h)

    def bn(self, name, x):
        return self._add(name, "batchnorm", [x], self.shape[x])

    def relu(self, name, x):
        return self._add(name, "relu", [x], self.shape[x])

    def pool(self, name, typ, x, kernel, stride=None, padding=0):
        c, h, w = self.shape[x]
        st = kernel if stride is None else stride
        kr, ks = _pair(kernel)
        sr, ss = _pair(st)
        pr, ps = _pair(padding)
        return self._add(name, typ, [x], (c, _out(h, kr, sr, pr), _out(w, ks, ss, ps)),
                         kernel=kernel, stride=stride,
                         padding=padding if padding != 0 else None)

    def maxpool(self, name, x, kernel, stride=None, padding=0):
        return self.pool(name, "maxpool", x, kernel, stride, padding)

    def avgpool(self, name, x, kernel, stride=None, padding=0):
        return self.pool(name, "avgpool", x, kernel, stride, padding)

    def gap(self, name, x):
        c, _, _ = self.shape[x]
        return self._add(name, "avgpool", [x], (c, 1, 1), **{"global": True})

    def add(self, name, *xs):
        shapes = {self.shape[x] for x in xs}
        if len(xs) < 2 or len(shapes) != 1:
            raise ValueError("%s: add of shapes %s" % (name, [self.shape[x] for x in xs]))
        return self._add(name, "add", xs, self.shape[xs[0]])

    def concat(self, name, *xs):
        hw = {self.shape[x][1:] for x in xs}
        if len(xs) < 2 or len(hw) != 1:
            raise ValueError("%s: concat of shapes %s" % (name, [self.shape[x] for x in xs]))
        c = sum(self.shape[x][0] for x in xs)
        return self._add(name, "concat", xs, (c,) + self.shape[xs[0]][1:])

    # -- helpers ----------------------------------------------------------
    def conv_bn_relu(self, prefix, x, out_channels, kernel, stride=1, padding=0,
                     groups=1, relu=True):
        y = self.conv(prefix + ".conv", x, out_channels, kernel, stride, padding, groups)
        y = self.bn(prefix + ".bn", y)
        return self.relu(prefix + ".relu", y) if relu else y

    def channels(self, x):
        return self.shape[x][0]

    # -- output -----------------------------------------------------------
    def to_yaml(self):
        out = ["# Generated by %s -- do not edit by hand; edit the script and rerun it." % SCRIPT]
        out.append("# Source: %s" % self.source)
        for c in self.comments:
            out.append("# " + c if c else "#")
        out.append("network: %s" % self.name)
        out.append("description: %s" % _quote(self.description))
        out.append("source: %s" % _quote(self.source))
        out.append("inputs:")
        for n, c, h, w, gradient in self.inputs:
            out.append("  - {name: %s, channels: %d, height: %d, width: %d%s}" %
                       (n, c, h, w, ", gradient: true" if gradient else ""))
        out.append("layers:")
        for layer in self.layers:
            keys = sorted(layer, key=KEY_ORDER.index)
            out.append("  - {%s}" % ", ".join("%s: %s" % (k, _val(layer[k])) for k in keys))
        return "\n".join(out) + "\n"


def _quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _val(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if not NAME_RE.match(v):
            raise ValueError("bad scalar %r" % v)
        return v
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    raise TypeError(v)


# ---------------------------------------------------------------------------
# ImageNet networks
# ---------------------------------------------------------------------------

def resnet(depth, width_factor=1):
    """torchvision ResNet-18 / -34 / -50 / -101 / -152 (v1.5), and Wide ResNet-50-2 (width_factor 2)."""
    basic = depth in (18, 34)
    # He et al. 2016, Table 1: blocks per stage.
    blocks = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
              152: [3, 8, 36, 3]}[depth]
    comments = ["Projection shortcuts (1x1 conv + BN, torchvision downsample.0/.1) where the",
                "shape changes; identity shortcuts elsewhere. Layer names follow torchvision."]
    if width_factor != 1:
        # torchvision wide_resnet50_2: width_per_group 128, so the bottleneck's inner width
        # is 2 x planes; its output (4 x planes) is ResNet-50's.
        name = "wrn_50_%d" % width_factor
        desc = ("Wide ResNet-50-%d (Zagoruyko & Komodakis, BMVC 2016), torchvision layout: "
                "ResNet-50 v1.5 with %dx wider bottleneck 1x1/3x3 convolutions, ImageNet 3x224x224"
                % (width_factor, width_factor))
        source = ("Zagoruyko & Komodakis, Wide Residual Networks, BMVC 2016, Sect. 4 (ImageNet "
                  "WRN-50-2-bottleneck); torchvision.models.wide_resnet50_2")
        comments.append("The bottleneck's inner width is %d x planes (torchvision width_per_group %d)."
                        % (width_factor, 64 * width_factor))
    elif basic:
        name = "resnet%d" % depth
        desc = ("ResNet-%d (He et al., CVPR 2016), torchvision layout, ImageNet 3x224x224"
                % depth)
        source = ("He et al., Deep Residual Learning for Image Recognition, CVPR 2016, Table 1; "
                  "torchvision.models.resnet%d" % depth)
    else:
        name = "resnet%d" % depth
        desc = ("ResNet-%d v1.5 (torchvision: stride 2 on the 3x3 conv of the bottleneck), "
                "ImageNet 3x224x224" % depth)
        source = ("He et al., Deep Residual Learning for Image Recognition, CVPR 2016, Table 1; "
                  "torchvision.models.resnet%d" % depth)
    n = Net(name, desc, source, comments)
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 64, 7, 2, 3)
    x = n.bn("bn1", x)
    x = n.relu("relu", x)
    x = n.maxpool("maxpool", x, 3, 2, 1)
    width = 64
    for li, nb in enumerate(blocks):
        planes = 64 * 2 ** li
        for b in range(nb):
            p = "layer%d.%d." % (li + 1, b)
            stride = 2 if (b == 0 and li > 0) else 1
            inp = x
            if basic:
                out_c = planes
                y = n.conv(p + "conv1", inp, planes, 3, stride, 1)
                y = n.bn(p + "bn1", y)
                y = n.relu(p + "relu1", y)
                y = n.conv(p + "conv2", y, planes, 3, 1, 1)
                y = n.bn(p + "bn2", y)
            else:
                out_c = planes * 4
                inner = planes * width_factor
                y = n.conv(p + "conv1", inp, inner, 1)
                y = n.bn(p + "bn1", y)
                y = n.relu(p + "relu1", y)
                y = n.conv(p + "conv2", y, inner, 3, stride, 1)
                y = n.bn(p + "bn2", y)
                y = n.relu(p + "relu2", y)
                y = n.conv(p + "conv3", y, out_c, 1)
                y = n.bn(p + "bn3", y)
            if stride != 1 or width != out_c:
                sc = n.conv(p + "downsample", inp, out_c, 1, stride)
                sc = n.bn(p + "downsample_bn", sc)
            else:
                sc = inp
            y = n.add(p + "add", y, sc)
            x = n.relu(p + ("relu2" if basic else "relu3"), y)
            width = out_c
    x = n.gap("avgpool", x)
    n.fc("fc", x, 1000)
    return n


def mobilenet_v2():
    n = Net("mobilenet_v2",
            "MobileNetV2 width 1.0 (Sandler et al., CVPR 2018), torchvision layout, ImageNet 3x224x224",
            "Sandler et al., MobileNetV2: Inverted Residuals and Linear Bottlenecks, CVPR 2018, "
            "Table 2; torchvision.models.mobilenet_v2",
            ["ReLU6 is written as relu (same shape, no MACs). Depthwise 3x3 convs are conv",
             "with groups = channels. Dropout before the classifier is omitted.",
             "Names: features.<i> as in torchvision; .expand/.dw/.project inside blocks."])
    x = n.input("image", 3, 224, 224)
    x = n.conv_bn_relu("features.0", x, 32, 3, 2, 1)
    settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
    idx = 1
    for t, c, reps, s in settings:
        for i in range(reps):
            stride = s if i == 0 else 1
            p = "features.%d" % idx
            cin = n.channels(x)
            hidden = cin * t
            y = x
            if t != 1:
                y = n.conv_bn_relu(p + ".expand", y, hidden, 1)
            y = n.conv_bn_relu(p + ".dw", y, hidden, 3, stride, 1, groups=hidden)
            y = n.conv_bn_relu(p + ".project", y, c, 1, relu=False)
            if stride == 1 and cin == c:
                y = n.add(p + ".add", x, y)
            x = y
            idx += 1
    x = n.conv_bn_relu("features.%d" % idx, x, 1280, 1)
    x = n.gap("avgpool", x)
    n.fc("classifier", x, 1000)
    return n


# Simonyan & Zisserman 2015, Table 1: output channels per convolution, stage by stage.
VGG_CONFIGS = {
    11: ("A", [[64], [128], [256, 256], [512, 512], [512, 512]]),
    13: ("B", [[64, 64], [128, 128], [256, 256], [512, 512], [512, 512]]),
    16: ("D", [[64, 64], [128, 128], [256, 256, 256], [512, 512, 512], [512, 512, 512]]),
    19: ("E", [[64, 64], [128, 128], [256, 256, 256, 256], [512, 512, 512, 512],
               [512, 512, 512, 512]]),
}


def vgg(depth):
    column, cfg = VGG_CONFIGS[depth]
    n = Net("vgg%d" % depth,
            "VGG-%d, configuration %s (Simonyan & Zisserman, ICLR 2015), no batchnorm, "
            "ImageNet 3x224x224" % (depth, column),
            "Simonyan & Zisserman, Very Deep Convolutional Networks for Large-Scale Image "
            "Recognition, ICLR 2015, Table 1 column %s" % column,
            ["Dropout in the classifier is omitted (no MACs, same shape)."])
    x = n.input("image", 3, 224, 224)
    for si, stage in enumerate(cfg):
        for ci, c in enumerate(stage):
            p = "conv%d_%d" % (si + 1, ci + 1)
            x = n.conv(p, x, c, 3, 1, 1)
            x = n.relu(p + ".relu", x)
        x = n.maxpool("pool%d" % (si + 1), x, 2, 2)
    x = n.fc("fc6", x, 4096)
    x = n.relu("fc6.relu", x)
    x = n.fc("fc7", x, 4096)
    x = n.relu("fc7.relu", x)
    n.fc("fc8", x, 1000)
    return n


def alexnet():
    n = Net("alexnet",
            "AlexNet, original two-GPU layout with grouped conv2/4/5 (Krizhevsky et al., NIPS 2012), 3x227x227",
            "Krizhevsky, Sutskever & Hinton, ImageNet Classification with Deep Convolutional "
            "Neural Networks, NIPS 2012, Figure 2 (227x227 input as in Caffe's bvlc_alexnet)",
            ["Local response normalization (after relu1 and relu2, before pool1/pool2) has",
             "no layer type in the workload format and is left out; it has no MACs and",
             "does not change the shape. Dropout in fc6/fc7 is omitted as well."])
    x = n.input("image", 3, 227, 227)
    x = n.conv("conv1", x, 96, 11, 4)
    x = n.relu("relu1", x)
    x = n.maxpool("pool1", x, 3, 2)
    x = n.conv("conv2", x, 256, 5, 1, 2, groups=2)
    x = n.relu("relu2", x)
    x = n.maxpool("pool2", x, 3, 2)
    x = n.conv("conv3", x, 384, 3, 1, 1)
    x = n.relu("relu3", x)
    x = n.conv("conv4", x, 384, 3, 1, 1, groups=2)
    x = n.relu("relu4", x)
    x = n.conv("conv5", x, 256, 3, 1, 1, groups=2)
    x = n.relu("relu5", x)
    x = n.maxpool("pool5", x, 3, 2)
    x = n.fc("fc6", x, 4096)
    x = n.relu("relu6", x)
    x = n.fc("fc7", x, 4096)
    x = n.relu("relu7", x)
    n.fc("fc8", x, 1000)
    return n


# ---------------------------------------------------------------------------
# CIFAR-10 / MNIST networks
# ---------------------------------------------------------------------------

def vgg_s():
    n = Net("vgg_s",
            "VGG-S of Procrustes: Zagoruyko's VGG with batchnorm for CIFAR-10 (3x32x32)",
            "S. Zagoruyko, 92.45% on CIFAR-10 in Torch, torch.ch blog, 2015 "
            "(cifar.torch models/vgg_bn_drop.lua); used as VGG-S in Procrustes (Yang et al., MICRO 2020)",
            ["Dropout layers are omitted (no MACs, same shape)."])
    x = n.input("image", 3, 32, 32)
    cfg = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M",
           512, 512, 512, "M", 512, 512, 512, "M"]
    ci = pi = 0
    for v in cfg:
        if v == "M":
            pi += 1
            x = n.maxpool("pool%d" % pi, x, 2, 2)
        else:
            ci += 1
            x = n.conv_bn_relu("conv%d" % ci, x, v, 3, 1, 1)
    x = n.fc("fc1", x, 512)
    x = n.bn("fc1.bn", x)
    x = n.relu("fc1.relu", x)
    n.fc("fc2", x, 10)
    return n


def wrn(depth=28, k=10):
    nb = (depth - 4) // 6
    n = Net("wrn_%d_%d" % (depth, k),
            "Wide ResNet %d-%d (Zagoruyko & Komodakis, BMVC 2016), pre-activation, CIFAR-10 3x32x32"
            % (depth, k),
            "Zagoruyko & Komodakis, Wide Residual Networks, BMVC 2016, Table 1; "
            "github.com/szagoruyko/wide-residual-networks (pytorch/resnet.py)",
            ["Block: BN-ReLU-conv3x3-BN-ReLU-conv3x3. When channels or stride change the",
             "shortcut is a 1x1 conv applied to the pre-activated input (relu1), as in the",
             "reference code; otherwise the identity of the block input. Dropout omitted."])
    x = n.input("image", 3, 32, 32)
    x = n.conv("conv0", x, 16, 3, 1, 1)
    widths = [16 * k, 32 * k, 64 * k]
    for gi, wdt in enumerate(widths):
        for b in range(nb):
            p = "group%d.%d." % (gi, b)
            stride = (1 if gi == 0 else 2) if b == 0 else 1
            cin = n.channels(x)
            o1 = n.relu(p + "relu1", n.bn(p + "bn1", x))
            y = n.conv(p + "conv1", o1, wdt, 3, stride, 1)
            y = n.relu(p + "relu2", n.bn(p + "bn2", y))
            y = n.conv(p + "conv2", y, wdt, 3, 1, 1)
            if cin != wdt or stride != 1:
                sc = n.conv(p + "shortcut", o1, wdt, 1, stride)
            else:
                sc = x
            x = n.add(p + "add", y, sc)
    x = n.relu("relu", n.bn("bn", x))
    x = n.gap("avgpool", x)
    n.fc("fc", x, 10)
    return n


def densenet_cifar(growth=24, blocks=3, layers=10, init=16):
    n = Net("densenet_cifar",
            "DenseNet (Huang et al., CVPR 2017) for CIFAR-10 3x32x32: growth rate %d, %d dense "
            "blocks x %d layers, no bottleneck, no compression" % (growth, blocks, layers),
            "Huang et al., Densely Connected Convolutional Networks, CVPR 2017, Sec. 3; "
            "configuration of Procrustes (Yang et al., MICRO 2020)",
            ["Dense layer: BN-ReLU-conv3x3 (growth channels), concatenated with its input.",
             "Transition: BN-ReLU-conv1x1 (same channels) then avgpool 2 s2, between blocks."])
    x = n.input("image", 3, 32, 32)
    x = n.conv("conv0", x, init, 3, 1, 1)
    for bi in range(1, blocks + 1):
        for li in range(1, layers + 1):
            p = "block%d.layer%d." % (bi, li)
            y = n.relu(p + "relu", n.bn(p + "bn", x))
            y = n.conv(p + "conv", y, growth, 3, 1, 1)
            x = n.concat(p + "concat", x, y)
        if bi < blocks:
            p = "transition%d." % bi
            y = n.relu(p + "relu", n.bn(p + "bn", x))
            y = n.conv(p + "conv", y, n.channels(x), 1)
            x = n.avgpool(p + "pool", y, 2, 2)
    x = n.relu("relu", n.bn("bn", x))
    x = n.gap("avgpool", x)
    n.fc("fc", x, 10)
    return n


def densenet_imagenet(depth):
    """torchvision DenseNet-169 / -201: growth 32, bottleneck 4 x growth, compression 0.5."""
    blocks = {169: (6, 12, 32, 32), 201: (6, 12, 48, 32)}[depth]  # Huang et al. 2017, Table 1
    growth, bottleneck = 32, 4 * 32
    n = Net("densenet%d" % depth,
            "DenseNet-%d (Huang et al., CVPR 2017), torchvision layout, ImageNet 3x224x224" % depth,
            "Huang et al., Densely Connected Convolutional Networks, CVPR 2017, Table 1 "
            "(DenseNet-BC, growth rate 32); torchvision.models.densenet%d" % depth,
            ["Dense layer: BN-ReLU-conv1x1 (4 x growth) then BN-ReLU-conv3x3 (growth),",
             "concatenated with its input. Transition: BN-ReLU-conv1x1 (half the channels)",
             "then avgpool 2 s2."])
    x = n.input("image", 3, 224, 224)
    x = n.conv("features.conv0", x, 64, 7, 2, 3)
    x = n.relu("features.relu0", n.bn("features.norm0", x))
    x = n.maxpool("features.pool0", x, 3, 2, 1)
    for bi, layers in enumerate(blocks, start=1):
        for li in range(1, layers + 1):
            p = "features.denseblock%d.denselayer%d." % (bi, li)
            y = n.relu(p + "relu1", n.bn(p + "norm1", x))
            y = n.conv(p + "conv1", y, bottleneck, 1)
            y = n.relu(p + "relu2", n.bn(p + "norm2", y))
            y = n.conv(p + "conv2", y, growth, 3, 1, 1)
            x = n.concat(p + "concat", x, y)
        if bi < len(blocks):
            p = "features.transition%d." % bi
            y = n.relu(p + "relu", n.bn(p + "norm", x))
            y = n.conv(p + "conv", y, n.channels(x) // 2, 1)
            x = n.avgpool(p + "pool", y, 2, 2)
    x = n.relu("features.relu5", n.bn("features.norm5", x))
    x = n.gap("avgpool", x)
    n.fc("classifier", x, 1000)
    return n


def mlp_mnist():
    n = Net("mlp_mnist", "MNIST multilayer perceptron 784-256-10 (CloNets)",
            "Isakov, Ehret, Kinsy, CloNets: Batchless DNN Training with On-Chip A Priori Sparse Neural Topologies (seed 004), MNIST MLP 784-256-10",
            ["The 1x28x28 image is flattened by fc1 (784 input features)."])
    x = n.input("image", 1, 28, 28)
    x = n.fc("fc1", x, 256)
    x = n.relu("relu1", x)
    n.fc("fc2", x, 10)
    return n


CLONETS_SOURCE = ("Isakov, Ehret, Kinsy, CloNets: Batchless DNN Training with On-Chip A Priori "
                  "Sparse Neural Topologies, FPL 2018 (seed 004)")


def clonets_mnist_clos():
    n = Net("clonets_mnist_clos",
            "MNIST 784-256-10 with a (1024, 256, 32, 16, 32) Clos cascade as the first layer (CloNets)",
            CLONETS_SOURCE + ", Sec. IV: 784-256-10, first layer a Clos cascade",
            ["Sec. IV: the 784 pixels are zero-padded to 1024 inputs; the first layer is the",
             "Clos cascade (I, O, Ri, Rm, Ro) = (1024, 256, 32, 16, 32), its first router",
             "configuration. P = Rm (I + O + Ri Ro) = 36,864 weights, plus fc2's 2,560."])
    x = n.input("image", 1024)
    x = n.clos_fc("fc1", x, 256, 32, 16, 32)
    x = n.relu("relu1", x)
    n.fc("fc2", x, 10)
    return n


def clonets_layer(clos):
    """Table I: one 1024-input, 1024-output layer, dense or a (1024, 1024, 32, 32, 32) cascade."""
    kind = "clos" if clos else "dense"
    n = Net("clonets_layer_%s" % kind,
            "One 1024-input, 1024-output %s layer (CloNets Table I)" %
            ("Clos (1024, 1024, 32, 32, 32)" if clos else "dense fully-connected"),
            CLONETS_SOURCE + ", Table I",
            ["Table I's layer: 1024 PEs, one output neuron per PE, Ri = Rm = Ro = 32 on a",
             "32x32 torus (Sec. III: 3n cycles for n = 32). The input is the previous layer's",
             "output in a pipeline of layers (Fig. 6), so its gradient is needed (gradient: true)",
             "and the backward pass computes every stage's deltas."])
    x = n.input("x", 1024, gradient=True)
    if clos:
        n.clos_fc("layer", x, 1024, 32, 32, 32)
    else:
        n.fc("layer", x, 1024)
    return n


# ---------------------------------------------------------------------------
# The other networks Eager Pruning trains (Zhang et al., ISCA 2019, §5, Table 5)
# ---------------------------------------------------------------------------

def caffenet():
    n = Net("caffenet",
            "CaffeNet (Caffe's bvlc_reference_caffenet: AlexNet with pooling before normalization), 3x227x227",
            "Jia et al., Caffe: Convolutional Architecture for Fast Feature Embedding, ACM MM 2014; "
            "models/bvlc_reference_caffenet/train_val.prototxt",
            ["The MAC layers are AlexNet's (same kernels, strides, groups); only the order of",
             "pooling and local response normalization differs, which has no MACs and is left",
             "out. Eager Pruning fine-tunes it on ImageNet's animal classes (FT, its §5); how",
             "many is not given, so fc8 keeps 1,000 outputs (fc8 is 0.4 % of the MACs)."])
    x = n.input("image", 3, 227, 227)
    x = n.conv("conv1", x, 96, 11, 4)
    x = n.relu("relu1", x)
    x = n.maxpool("pool1", x, 3, 2)
    x = n.conv("conv2", x, 256, 5, 1, 2, groups=2)
    x = n.relu("relu2", x)
    x = n.maxpool("pool2", x, 3, 2)
    x = n.conv("conv3", x, 384, 3, 1, 1)
    x = n.relu("relu3", x)
    x = n.conv("conv4", x, 384, 3, 1, 1, groups=2)
    x = n.relu("relu4", x)
    x = n.conv("conv5", x, 256, 3, 1, 1, groups=2)
    x = n.relu("relu5", x)
    x = n.maxpool("pool5", x, 3, 2)
    x = n.fc("fc6", x, 4096)
    x = n.relu("relu6", x)
    x = n.fc("fc7", x, 4096)
    x = n.relu("relu7", x)
    n.fc("fc8", x, 1000)
    return n


def nin():
    n = Net("nin",
            "Network in Network for ImageNet (Lin et al., ICLR 2014), Caffe model zoo layout, 3x224x224",
            "Lin, Chen & Yan, Network In Network, ICLR 2014, Sec. 3; Caffe model zoo "
            "nin-imagenet train_val.prototxt (4 mlpconv layers, global average pooling)",
            ["Each mlpconv layer is a conv followed by two 1x1 convs (cccp). Dropout is",
             "omitted. Pools use padding 1 where Caffe's ceil rounding gives one more row."])
    x = n.input("image", 3, 224, 224)
    blocks = [(96, 11, 4, 0), (256, 5, 1, 2), (384, 3, 1, 1), (1024, 3, 1, 1)]
    cccp = 0
    for i, (c, k, s, p) in enumerate(blocks, 1):
        x = n.relu("relu%d" % i, n.conv("conv%d" % i, x, c, k, s, p))
        last = 1000 if i == 4 else c
        for j, out in enumerate((c, last), 1):
            cccp += 1
            x = n.relu("relu_cccp%d" % cccp, n.conv("cccp%d" % cccp, x, out, 1))
        if i < 4:
            x = n.maxpool("pool%d" % i, x, 3, 2, 0 if i < 3 else 1)
    n.gap("pool4", x)
    return n


def lenet():
    n = Net("lenet",
            "LeNet for MNIST as in Caffe's examples/mnist (20 and 50 5x5 filters, 500 hidden), 1x28x28",
            "LeCun et al., Gradient-Based Learning Applied to Document Recognition, Proc. IEEE "
            "1998; Caffe examples/mnist/lenet_train_test.prototxt",
            [])
    x = n.input("image", 1, 28, 28)
    x = n.conv("conv1", x, 20, 5)
    x = n.maxpool("pool1", x, 2, 2)
    x = n.conv("conv2", x, 50, 5)
    x = n.maxpool("pool2", x, 2, 2)
    x = n.fc("ip1", x, 500)
    x = n.relu("relu1", x)
    n.fc("ip2", x, 10)
    return n


def resnet32_cifar():
    n = Net("resnet32_cifar",
            "ResNet-32 for CIFAR-10 (He et al., CVPR 2016, Sec. 4.2: 6n+2 layers, n = 5), 3x32x32",
            "He et al., Deep Residual Learning for Image Recognition, CVPR 2016, Sec. 4.2",
            ["Three stages of 5 basic blocks with 16, 32 and 64 channels. The paper's CIFAR",
             "shortcuts are identities with zero-padded channels (option A), which the workload",
             "format cannot express; the two downsampling blocks use a 1x1 projection (option B)",
             "instead: 2 of 34 MAC layers, 0.9 % of the MACs."])
    x = n.input("image", 3, 32, 32)
    x = n.relu("relu", n.bn("bn1", n.conv("conv1", x, 16, 3, 1, 1)))
    for si, width in enumerate([16, 32, 64], 1):
        for b in range(5):
            p = "stage%d.%d." % (si, b)
            stride = 2 if (b == 0 and si > 1) else 1
            y = n.relu(p + "relu1", n.bn(p + "bn1", n.conv(p + "conv1", x, width, 3, stride, 1)))
            y = n.bn(p + "bn2", n.conv(p + "conv2", y, width, 3, 1, 1))
            sc = x
            if stride != 1 or n.channels(x) != width:
                sc = n.bn(p + "shortcut_bn", n.conv(p + "shortcut", x, width, 1, stride))
            x = n.relu(p + "relu2", n.add(p + "add", y, sc))
    x = n.gap("avgpool", x)
    n.fc("fc", x, 10)
    return n


def googlenet():
    n = Net("googlenet",
            "GoogLeNet (Szegedy et al., CVPR 2015) with its two auxiliary classifiers, as trained in Caffe's bvlc_googlenet, 3x224x224",
            "Szegedy et al., Going Deeper with Convolutions, CVPR 2015, Table 1 and Sec. 5; Caffe "
            "models/bvlc_googlenet/train_val.prototxt",
            ["Training includes the auxiliary classifiers on inception 4a and 4d (avgpool 5",
             "s3, 1x1 conv 128, fc 1024, fc 1000). Local response normalization and dropout",
             "are left out (no MACs). Max pools with stride 2 use padding 1 where Caffe's",
             "ceil rounding gives one more row. Caffe's `/` in layer names is `.` here."])
    x = n.input("image", 3, 224, 224)
    x = n.relu("conv1.relu", n.conv("conv1.7x7_s2", x, 64, 7, 2, 3))
    x = n.maxpool("pool1.3x3_s2", x, 3, 2, 1)
    x = n.relu("conv2.relu_reduce", n.conv("conv2.3x3_reduce", x, 64, 1))
    x = n.relu("conv2.relu", n.conv("conv2.3x3", x, 192, 3, 1, 1))
    x = n.maxpool("pool2.3x3_s2", x, 3, 2, 1)

    def inception(name, x, c1, c3r, c3, c5r, c5, cp):
        p = "inception_%s." % name
        b1 = n.relu(p + "relu_1x1", n.conv(p + "1x1", x, c1, 1))
        b3 = n.relu(p + "relu_3x3_reduce", n.conv(p + "3x3_reduce", x, c3r, 1))
        b3 = n.relu(p + "relu_3x3", n.conv(p + "3x3", b3, c3, 3, 1, 1))
        b5 = n.relu(p + "relu_5x5_reduce", n.conv(p + "5x5_reduce", x, c5r, 1))
        b5 = n.relu(p + "relu_5x5", n.conv(p + "5x5", b5, c5, 5, 1, 2))
        bp = n.maxpool(p + "pool", x, 3, 1, 1)
        bp = n.relu(p + "relu_pool_proj", n.conv(p + "pool_proj", bp, cp, 1))
        return n.concat(p + "output", b1, b3, b5, bp)

    def auxiliary(name, x):
        p = "%s." % name
        y = n.avgpool(p + "ave_pool", x, 5, 3)
        y = n.relu(p + "relu_conv", n.conv(p + "conv", y, 128, 1))
        y = n.relu(p + "relu_fc", n.fc(p + "fc", y, 1024))
        n.fc(p + "classifier", y, 1000)

    # Table 1: #1x1, #3x3 reduce, #3x3, #5x5 reduce, #5x5, pool proj.
    x = inception("3a", x, 64, 96, 128, 16, 32, 32)
    x = inception("3b", x, 128, 128, 192, 32, 96, 64)
    x = n.maxpool("pool3.3x3_s2", x, 3, 2, 1)
    x = inception("4a", x, 192, 96, 208, 16, 48, 64)
    auxiliary("loss1", x)
    x = inception("4b", x, 160, 112, 224, 24, 64, 64)
    x = inception("4c", x, 128, 128, 256, 24, 64, 64)
    x = inception("4d", x, 112, 144, 288, 32, 64, 64)
    auxiliary("loss2", x)
    x = inception("4e", x, 256, 160, 320, 32, 128, 128)
    x = n.maxpool("pool4.3x3_s2", x, 3, 2, 1)
    x = inception("5a", x, 256, 160, 320, 32, 128, 128)
    x = inception("5b", x, 384, 192, 384, 48, 128, 128)
    x = n.gap("pool5.7x7_s1", x)
    n.fc("loss3.classifier", x, 1000)
    return n


EP_SOURCE = ("Zhang et al., Eager Pruning: Algorithm and Architecture Support for Fast Training "
             "of Deep Neural Networks, ISCA 2019 (seed 001)")


def lstm_timit(input_size=153, hidden=1024, steps=20, layers=1, classes=61):
    """Eager Pruning's LSTM on TIMIT (§5, Table 5): the paper gives only its 1024 memory cells.

    The other dimensions are assumptions, each stated in the file; the EP
    reproduction (scripts/reproduce_eager_pruning.py) reruns the LSTM row with
    each changed and shows how far the reduced computation moves."""
    n = Net("lstm_timit",
            "LSTM acoustic model for TIMIT as in Eager Pruning: %d layer(s) of %d cells, "
            "%d features x %d frames in, %d classes per frame" % (layers, hidden, input_size,
                                                                  steps, classes),
            EP_SOURCE + ", §5 and Table 5: LSTM with 1024 memory cells on TIMIT (Kaldi)",
            ["Per key: hidden_size 1024: EP §5 (\"LSTM (1024 memory cells)\"). The rest the",
             "paper does not give; assumptions:",
             "  layers %d: one LSTM layer of those cells (the paper names one cell count)." % layers,
             "  channels %d (features per frame): the input of ESE's TIMIT LSTM (Han et al.," %
             input_size,
             "    FPGA 2017), the LSTM accelerator EP compares against on this network (§5.2).",
             "  height %d (frames per sequence = sequence_length): Kaldi nnet1's truncated" % steps,
             "    BPTT of 20 frames per stream (its LSTM recipe's --batch-size 20).",
             "  out_features %d: TIMIT's phone set (Garofolo et al., 1993), one softmax per frame." %
             classes,
             "No peepholes, no projection, no biases (trainloop counts weight MACs). The",
             "elementwise cell update is not modelled (docs/workload_format.md)."])
    x = n.input("frames", input_size, steps, 1)
    for i in range(1, layers + 1):
        x = n.lstm("lstm%d" % i, x, hidden)
    n.matmul("output", x, classes)
    return n


NETWORKS = [
    ("resnet18.yaml", lambda: resnet(18)),
    ("resnet50.yaml", lambda: resnet(50)),
    ("resnet34.yaml", lambda: resnet(34)),
    ("wrn_50_2.yaml", lambda: resnet(50, width_factor=2)),
    ("mobilenet_v2.yaml", mobilenet_v2),
    ("vgg16.yaml", lambda: vgg(16)),
    ("alexnet.yaml", alexnet),
    ("vgg_s.yaml", vgg_s),
    ("wrn_28_10.yaml", wrn),
    ("densenet_cifar.yaml", densenet_cifar),
    ("mlp_mnist.yaml", mlp_mnist),
    ("clonets_mnist_clos.yaml", clonets_mnist_clos),
    ("clonets_layer_dense.yaml", lambda: clonets_layer(False)),
    ("clonets_layer_clos.yaml", lambda: clonets_layer(True)),
    ("caffenet.yaml", caffenet),
    ("nin.yaml", nin),
    ("lenet.yaml", lenet),
    ("resnet32_cifar.yaml", resnet32_cifar),
    ("googlenet.yaml", googlenet),
    ("lstm_timit.yaml", lstm_timit),
    # Chen et al. 2024 (TCAS-I), Table III's networks beyond those above.
    ("resnet101.yaml", lambda: resnet(101)),
    ("resnet152.yaml", lambda: resnet(152)),
    ("vgg11.yaml", lambda: vgg(11)),
    ("vgg13.yaml", lambda: vgg(13)),
    ("vgg19.yaml", lambda: vgg(19)),
    ("densenet169.yaml", lambda: densenet_imagenet(169)),
    ("densenet201.yaml", lambda: densenet_imagenet(201)),
]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.dirname(here), help="output directory (default: workloads/)")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for fname, build in NETWORKS:
        net = build()
        path = os.path.join(args.out, fname)
        with open(path, "w", newline="\n") as f:
            f.write(net.to_yaml())
        print("wrote %s (%d layers)" % (path, len(net.layers)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

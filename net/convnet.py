# SPDX-License-Identifier: Apache-2.0
"""Float side of the MNIST CNN of `make model` (issue 26): data, a NumPy CNN, N:M pruning of its
convolution and fully connected weights (SPEC §3, along K in OHWI order) and channel permutation.

The network, NHWC throughout, on raw pixels 0..255:
    conv3x3(C1, SAME) + ReLU -> maxpool 2x2 -> conv3x3(C2, SAME) + ReLU -> maxpool 2x2
    -> flatten (7*7*C2, channel fastest) -> fully connected -> 10 logits
A layer is {"kind": "conv" | "fc", "w": float32, "b": float32 [O]}; conv weights are OHWI
[O, 3, 3, I] (TFLite's CONV_2D layout, K = 3*3*I with the input channel fastest), fc weights
[O, K] (PyTorch Linear / TFLite FULLY_CONNECTED). The first layer sees the pixels times 1/255
(IN_SCALE); the exported model folds that factor into its weights.

Deterministic as net/mlp.py: every random draw comes from a numpy Generator seeded by the
caller, and the caller pins BLAS to one thread.
"""
import gzip

import numpy as np

import mlp

IN_SCALE = np.float32(1.0 / 255.0)  # pixels 0..255 -> 0..1 inside the float network


def mnist(path, test_per_class=100):
    """mnist_5k.csv.gz (each line 784 pixels 0..255 then the label; 500 images per class, sorted
    by class): the last test_per_class images of every class in file order are the test set, the
    others the training set. Images float32 [N, 28, 28, 1] with the raw pixel values."""
    with gzip.open(path, "rt") as f:
        a = np.loadtxt(f, delimiter=",", dtype=np.int32)
    assert a.shape == (5000, 785) and a[:, :784].min() >= 0 and a[:, :784].max() <= 255, a.shape
    x = a[:, :784].astype(np.float32).reshape(-1, 28, 28, 1)
    y = a[:, 784].astype(np.int64)
    test = np.zeros(len(y), bool)
    for c in range(10):
        idx = np.flatnonzero(y == c)
        test[idx[-test_per_class:]] = True
    return x[~test], y[~test], x[test], y[test]


# ---------------------------------------------------------------- layers

def init(rng, c1=8, c2=16, classes=10, side=28):
    """He-initialised conv(c1) -> conv(c2) -> fc(classes)."""
    def he(shape, fan_in):
        return rng.standard_normal(shape).astype(np.float32) * np.float32(np.sqrt(2.0 / fan_in))
    k_fc = (side // 4) * (side // 4) * c2
    return [{"kind": "conv", "w": he((c1, 3, 3, 1), 9), "b": np.zeros(c1, np.float32)},
            {"kind": "conv", "w": he((c2, 3, 3, c1), 9 * c1), "b": np.zeros(c2, np.float32)},
            {"kind": "fc", "w": he((classes, k_fc), k_fc), "b": np.zeros(classes, np.float32)}]


def im2col(h, pad_value=0):
    """3x3 SAME windows of h [B, H, W, C]: [B, H, W, 9*C] in (kh, kw, c) order, c fastest (the
    K order of OHWI weights); outside the image pad_value."""
    b, hh, ww, c = h.shape
    hp = np.full((b, hh + 2, ww + 2, c), pad_value, h.dtype)
    hp[:, 1:-1, 1:-1, :] = h
    cols = np.empty((b, hh, ww, 3, 3, c), h.dtype)
    for dy in range(3):
        for dx in range(3):
            cols[:, :, :, dy, dx, :] = hp[:, dy:dy + hh, dx:dx + ww, :]
    return cols.reshape(b, hh, ww, 9 * c)


def col2im(g):
    """Adjoint of im2col: g [B, H, W, 9*C] -> [B, H, W, C]."""
    b, hh, ww, k = g.shape
    c = k // 9
    g = g.reshape(b, hh, ww, 3, 3, c)
    gp = np.zeros((b, hh + 2, ww + 2, c), g.dtype)
    for dy in range(3):
        for dx in range(3):
            gp[:, dy:dy + hh, dx:dx + ww, :] += g[:, :, :, dy, dx, :]
    return gp[:, 1:-1, 1:-1, :]


def _windows(a):
    """[B, H, W, C] -> [B, H/2, W/2, C, 4]: the 2x2 pooling windows, row-major inside."""
    b, hh, ww, c = a.shape
    return a.reshape(b, hh // 2, 2, ww // 2, 2, c).transpose(0, 1, 3, 5, 2, 4).reshape(
        b, hh // 2, ww // 2, c, 4)


def maxpool(a):
    """2x2 stride-2 max pooling; also the winner of every window (the first on ties)."""
    w = _windows(a)
    idx = np.argmax(w, axis=-1)
    return np.take_along_axis(w, idx[..., None], axis=-1)[..., 0], idx


def maxpool_back(g, idx):
    b, h2, w2, c = g.shape
    g4 = np.zeros((b, h2, w2, c, 4), g.dtype)
    np.put_along_axis(g4, idx[..., None], g[..., None], axis=-1)
    return g4.reshape(b, h2, w2, c, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(b, 2 * h2, 2 * w2, c)


def forward(net, x, keep=False):
    """Logits of raw-pixel images x [B, 28, 28, 1]; with keep=True also what backprop needs."""
    h = x * IN_SCALE
    cache = []
    for layer in net:
        if layer["kind"] == "conv":
            cols = im2col(h)
            o = layer["w"].shape[0]
            z = cols.reshape(-1, cols.shape[-1]) @ layer["w"].reshape(o, -1).T + layer["b"]
            a = np.maximum(z, 0).reshape(cols.shape[:3] + (o,))
            h, idx = maxpool(a)
            cache.append((cols, a, idx))
        else:
            flat = h.reshape(len(h), -1)
            h = flat @ layer["w"].T + layer["b"]
            cache.append((flat,))
    return (h, cache) if keep else h


def layer_outputs(net, x, batch=500):
    """Per layer, (min, max) of its output (after ReLU, before pooling, for convs) over x: the
    calibration ranges of int8 post-training quantization."""
    lo = [np.inf] * len(net)
    hi = [-np.inf] * len(net)
    for s in range(0, len(x), batch):
        logits, cache = forward(net, x[s:s + batch], keep=True)
        outs = [c[1] for c in cache[:-1]] + [logits]
        for i, o in enumerate(outs):
            lo[i], hi[i] = min(lo[i], float(o.min())), max(hi[i], float(o.max()))
    return list(zip(lo, hi))


def predict(net, x, batch=500):
    return np.concatenate([np.argmax(forward(net, x[s:s + batch]), axis=1)
                           for s in range(0, len(x), batch)])


def accuracy(net, x, y):
    return float(np.mean(predict(net, x) == y))


def gradients(net, x, y, wd):
    """Softmax cross-entropy summed over the batch: (loss, [gw0, gb0, gw1, gb1, ...]) of the
    batch mean, plus wd * w on the weights (L2, as net/mlp.py)."""
    logits, cache = forward(net, x, keep=True)
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    loss = float(-np.log(p[np.arange(len(y)), y] + 1e-12).sum())
    g = p
    g[np.arange(len(y)), y] -= 1
    g /= len(y)
    grads = []
    for i in range(len(net) - 1, -1, -1):
        layer = net[i]
        if layer["kind"] == "fc":
            (flat,) = cache[i]
            gw = g.T @ flat
            gb = g.sum(axis=0)
            g = (g @ layer["w"]).reshape(len(y), *cache[i - 1][2].shape[1:4])
        else:
            cols, a, idx = cache[i]
            o = layer["w"].shape[0]
            gz = maxpool_back(g, idx) * (a > 0)
            gz2 = gz.reshape(-1, o)
            gw = (gz2.T @ cols.reshape(-1, cols.shape[-1])).reshape(layer["w"].shape)
            gb = gz2.sum(axis=0)
            if i > 0:
                g = col2im((gz2 @ layer["w"].reshape(o, -1)).reshape(cols.shape))
        grads[:0] = [gw + wd * layer["w"], gb]
    return loss, grads


def shift(x, rng, most=2):
    """Every image translated by its own random (dy, dx) in [-most, most], zeros shifted in."""
    b, hh, ww, c = x.shape
    xp = np.zeros((b, hh + 2 * most, ww + 2 * most, c), x.dtype)
    xp[:, most:most + hh, most:most + ww, :] = x
    d = rng.integers(0, 2 * most + 1, (b, 2))
    return np.stack([xp[i, d[i, 0]:d[i, 0] + hh, d[i, 1]:d[i, 1] + ww, :] for i in range(b)])


def train(net, x, y, epochs, rng, lr=1e-3, batch=64, masks=None, wd=1e-4, augment=0, log=None):
    """Adam on softmax cross-entropy, as net/mlp.py; the learning rate falls as a half cosine
    from lr to lr/20 over the run; with augment > 0 every batch is shifted by up to augment
    pixels (shift). With masks, gradients and weights stay zero where the mask is 0 (masked
    fine-tuning: the sparsity pattern is fixed)."""
    opt = mlp.Adam(net)
    n = x.shape[0]
    total = epochs * ((n + batch - 1) // batch)
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            xb = shift(x[idx], rng, augment) if augment else x[idx]
            loss, grads = gradients(net, xb, y[idx], wd)
            loss_sum += loss
            if masks is not None:
                for j, mask in enumerate(masks):
                    grads[2 * j] *= mask
            rate = lr * (0.05 + 0.95 * 0.5 * (1 + np.cos(np.pi * opt.steps / total)))
            opt.update(grads, rate, masks)
        if log is not None:
            log(epoch + 1, epochs, loss_sum / n)
    return net


def copy(net):
    return [{"kind": layer["kind"], "w": layer["w"].copy(), "b": layer["b"].copy()} for layer in net]


# ---------------------------------------------------------------- N:M pruning (SPEC §3, §8)

def nm_mask(w, n, m):
    """0/1 mask of weights w [O, ...] pruned N:M per output channel along the flattened K (OHWI
    order); a last group shorter than m is padded with zeros for the choice (SPEC §8)."""
    o = w.shape[0]
    wm = w.reshape(o, -1)
    k = wm.shape[1]
    kp = -(-k // m) * m
    padded = np.zeros((o, kp), np.float32)
    padded[:, :k] = wm
    return mlp.nm_mask(padded, n, m)[:, :k].reshape(w.shape)


def prune(net, n, m):
    """Every layer's weights pruned N:M (the conv and fc weights run on the array); (net, masks)."""
    masks = [nm_mask(layer["w"], n, m) for layer in net]
    out = copy(net)
    for layer, mask in zip(out, masks):
        layer["w"] = (layer["w"] * mask).astype(np.float32)
    return out, masks


def kept_magnitude(net, n, m):
    return sum(float(np.abs(layer["w"] * nm_mask(layer["w"], n, m)).sum()) for layer in net)


# ---------------------------------------------------------------- channel permutation
# A layer's N:M groups run along its input channels: for a conv, K = (kh, kw, ic) with ic fastest,
# so when ic is a multiple of m a group is m channels of one tap; for the fc, K = (y, x, c) with c
# fastest, a group is m channels of one position. Permuting the input channels of layer i (the
# same permutation at every tap/position) and the output channels (weights, bias) of layer i-1
# leaves the function unchanged (ReLU and max pooling act per channel). The permutation search
# of net/mlp.py then runs on the weights seen as [rows = O * taps, columns = channels].

def channel_matrix(layer, channels):
    """Layer weights as [O * taps, channels] (the input channel is the fastest axis of K)."""
    return layer["w"].reshape(-1, channels)


def permute_channels(net, i, perm):
    """The same network with layer i's input channels (= layer i-1's outputs) in order perm."""
    assert i >= 1 and net[i - 1]["kind"] == "conv"
    c = net[i - 1]["w"].shape[0]
    out = copy(net)
    w = out[i]["w"]
    out[i]["w"] = np.ascontiguousarray(w.reshape(-1, c)[:, perm].reshape(w.shape))
    out[i - 1]["w"] = np.ascontiguousarray(out[i - 1]["w"][perm])
    out[i - 1]["b"] = out[i - 1]["b"][perm]
    return out


def search_channels(net, i, n, m):
    """A permutation of layer i's input channels that keeps at least as much magnitude under N:M
    pruning (mlp.search_permutation over the channel columns); identity when the channels are not
    whole groups (fewer than 2m, or not a multiple of m)."""
    c = net[i - 1]["w"].shape[0]
    if c % m or c // m < 2:
        return np.arange(c)
    return mlp.search_permutation(channel_matrix(net[i], c), n, m)

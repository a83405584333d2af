# SPDX-License-Identifier: Apache-2.0
"""Float side of `make model`: data, a NumPy MLP, N:M pruning (SPEC §3) and channel permutation.

Deterministic: every random draw comes from a numpy Generator seeded by the caller, and the
caller pins BLAS to one thread (net/model.py sets the environment before numpy is imported),
so the same seed gives the same weights bit for bit on this machine.
"""

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split


def digits(seed, test_size=0.2):
    """load_digits (1797 8x8 images, shipped in the wheel) scaled to [0, 1], a fixed stratified split."""
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    xtr, xte, ytr, yte = train_test_split(x, y, test_size=test_size, random_state=seed, stratify=y)
    return xtr, ytr, xte, yte


# ---------------------------------------------------------------- network
# A network is a list of layers {"w": [out x in] float32, "b": [out] float32}, PyTorch Linear
# layout; ReLU after every layer but the last. Masks (same shapes as the weights, 0/1) are
# kept next to it by the caller and are fixed during masked fine-tuning.

def init(sizes, rng):
    """He-initialised layers for widths sizes[0] -> ... -> sizes[-1]."""
    net = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        w = rng.standard_normal((fan_out, fan_in)).astype(np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        net.append({"w": w, "b": np.zeros(fan_out, np.float32)})
    return net


def forward(net, x, keep=False):
    """Logits of x [B x in]; with keep=True also the input of every layer (for backprop)."""
    acts = [x]
    h = x
    for i, layer in enumerate(net):
        h = h @ layer["w"].T + layer["b"]
        if i + 1 < len(net):
            h = np.maximum(h, 0)
        acts.append(h)
    return (h, acts) if keep else h


def layer_outputs(net, x):
    """The output of every layer (after ReLU for hidden layers): calibration data for int8."""
    return forward(net, x, keep=True)[1][1:]


def accuracy(net, x, y):
    return float(np.mean(np.argmax(forward(net, x), axis=1) == y))


class Adam:
    """Adam (b1 0.9, b2 0.999, eps 1e-8) over every layer's "w" and "b", the optimiser of this
    file's and net/convnet.py's train. `steps` counts the updates made so far."""

    def __init__(self, net):
        self.net = net
        self.params = [(layer, key) for layer in net for key in ("w", "b")]
        self.m1 = [np.zeros_like(layer[key]) for layer, key in self.params]
        self.m2 = [np.zeros_like(layer[key]) for layer, key in self.params]
        self.steps = 0

    def update(self, grads, rate, masks=None):
        """One step at learning rate `rate` (grads in params' order: w, b per layer); with masks,
        the weights are masked again afterwards."""
        b1, b2, eps = 0.9, 0.999, 1e-8
        m1, m2 = self.m1, self.m2
        self.steps += 1
        step = self.steps
        for j, (layer, key) in enumerate(self.params):
            m1[j] = b1 * m1[j] + (1 - b1) * grads[j]
            m2[j] = b2 * m2[j] + (1 - b2) * grads[j] * grads[j]
            mh = m1[j] / (1 - b1 ** step)
            vh = m2[j] / (1 - b2 ** step)
            layer[key] = (layer[key] - rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if masks is not None:
            for layer, mask in zip(self.net, masks):
                layer["w"] *= mask


def train(net, x, y, epochs, rng, lr=1e-3, batch=64, masks=None, wd=1e-4, log=None):
    """Adam on softmax cross-entropy. With masks, gradients and weights stay zero where the mask
    is 0 (masked fine-tuning: the sparsity pattern is fixed)."""
    opt = Adam(net)
    n = x.shape[0]
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            logits, acts = forward(net, x[idx], keep=True)
            z = logits - logits.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            loss_sum += float(-np.log(p[np.arange(len(idx)), y[idx]] + 1e-12).sum())
            g = p
            g[np.arange(len(idx)), y[idx]] -= 1
            g /= len(idx)
            grads = []
            for i in range(len(net) - 1, -1, -1):
                gw = g.T @ acts[i] + wd * net[i]["w"]
                gb = g.sum(axis=0)
                if masks is not None:
                    gw *= masks[i]
                grads[:0] = [gw, gb]
                if i > 0:
                    g = (g @ net[i]["w"]) * (acts[i] > 0)
            opt.update(grads, lr, masks)
        if log is not None:
            log(epoch + 1, epochs, loss_sum / n)
    return net


def copy(net):
    return [{"w": layer["w"].copy(), "b": layer["b"].copy()} for layer in net]


# ---------------------------------------------------------------- N:M pruning (SPEC §3)

def nm_mask(w, n, m):
    """0/1 mask keeping, in every aligned group of m along the last axis (K), the n entries of
    largest magnitude; on ties the lower index (stable sort of -|w|)."""
    rows, k = w.shape
    assert k % m == 0, f"K = {k} is not a multiple of m = {m}"
    g = np.abs(w).reshape(rows, k // m, m)
    order = np.argsort(-g, axis=2, kind="stable")
    mask = np.zeros_like(g, dtype=np.float32)
    np.put_along_axis(mask, order[:, :, :n], 1.0, axis=2)
    return mask.reshape(rows, k)


def kept_magnitude(w, n, m):
    """Sum of |w| that N:M pruning keeps."""
    return float(np.abs(w * nm_mask(w, n, m)).sum())


# ---------------------------------------------------------------- channel permutation
# Permuting the input channels (columns) of a layer changes which weights share a group of m,
# so a permutation can keep more magnitude after N:M pruning. The search below is steepest
# descent over single swaps of two columns in different groups, with the exact gain of every
# swap from one identity: if R is a group without one of its members and v is the new member,
# top_n(R + v) = top_n(R) + max(0, v - r_n), r_n the n-th largest of R (R has m-1 >= n members).
# For a swap of column i (group a) with column j (group b), per row:
#   gain = top_n(a - i) - top_n(a) + max(0, |w_j| - r_n(a - i))
#        + top_n(b - j) - top_n(b) + max(0, |w_i| - r_n(b - j)),
# summed over rows. After a swap only the 2m columns of the two groups change.

def _column_terms(a, n, m, cols):
    """For columns cols of |W| (rows x K): loss[c] = sum_r top_n(group - c) - top_n(group) and the
    per-row threshold r_n(group - c)."""
    rows = a.shape[0]
    loss = np.empty(len(cols), np.float64)
    thr = np.empty((rows, len(cols)), np.float32)
    for t, c in enumerate(cols):
        g0 = (c // m) * m
        grp = a[:, g0:g0 + m]
        rest = np.delete(grp, c - g0, axis=1)
        rest_sorted = -np.sort(-rest, axis=1)
        full_top = np.sort(grp, axis=1)[:, m - n:].sum(axis=1, dtype=np.float64)
        loss[t] = float((rest_sorted[:, :n].sum(axis=1, dtype=np.float64) - full_top).sum())
        thr[:, t] = rest_sorted[:, n - 1]
    return loss, thr


def _relu_sums(a, thr, cols_v):
    """S[t, j] = sum_r max(0, a[r, cols_v[j]] - thr[r, t]) (threshold columns x value columns)."""
    s = np.empty((thr.shape[1], len(cols_v)), np.float64)
    av = a[:, cols_v]
    for t in range(thr.shape[1]):
        s[t] = np.maximum(av - thr[:, t:t + 1], 0).sum(axis=0, dtype=np.float64)
    return s


def search_permutation(w, n, m, max_swaps=100000, log=None):
    """A permutation perm of the columns of w (w[:, perm] is the permuted layer) that keeps at
    least as much magnitude under N:M pruning as the identity; steepest single swaps until no
    swap gains (or max_swaps)."""
    rows, k = w.shape
    assert k % m == 0 and k // m >= 2
    a = np.abs(w).astype(np.float32)
    perm = np.arange(k)
    allc = np.arange(k)
    loss, thr = _column_terms(a, n, m, allc)
    s = _relu_sums(a, thr, allc)  # s[i, j]: column j's values moved into i's place
    same = (allc[:, None] // m) == (allc[None, :] // m)
    tiny = 1e-9 * float(a.sum(dtype=np.float64))  # below float rounding noise: stop
    swaps = 0
    predicted = 0.0
    while swaps < max_swaps:
        gain = loss[:, None] + loss[None, :] + s + s.T
        gain[same] = -np.inf
        flat = int(np.argmax(gain))
        i, j = divmod(flat, k)
        if not gain[i, j] > tiny:
            break
        predicted += float(gain[i, j])
        a[:, [i, j]] = a[:, [j, i]]
        perm[[i, j]] = perm[[j, i]]
        swaps += 1
        touched = np.concatenate([np.arange((i // m) * m, (i // m) * m + m),
                                  np.arange((j // m) * m, (j // m) * m + m)])
        loss[touched], thr[:, touched] = _column_terms(a, n, m, touched)
        s[touched, :] = _relu_sums(a, thr[:, touched], allc)
        s[:, [i, j]] = _relu_sums(a, thr, np.array([i, j])).reshape(k, 2)
    before, after = kept_magnitude(w, n, m), kept_magnitude(w[:, perm], n, m)
    assert abs((after - before) - predicted) <= 1e-4 * before, (before, after, predicted)
    if log is not None:
        log(swaps, before, after)
    return perm


def permute_inputs(net, layer, perm):
    """The same network with layer's input channels in order perm: the columns of layer's weight
    and the output rows and bias of the layer before it (ReLU is elementwise, so the function is
    unchanged)."""
    assert layer >= 1, "the first layer's inputs are the data"
    out = copy(net)
    out[layer]["w"] = out[layer]["w"][:, perm]
    out[layer - 1]["w"] = out[layer - 1]["w"][perm, :]
    out[layer - 1]["b"] = out[layer - 1]["b"][perm]
    return out

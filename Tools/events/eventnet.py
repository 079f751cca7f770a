"""The event network: a small 1-D convolutional network over a window's reduced log-mel spectrogram, joined with
the pooled window statistics, then dense layers and a softmax over `eventdata.CLASSES`.

With `band_time`, the convolutions run over band and time instead (3 x 3 kernels on the patch as one channel).
The C engine (`Sources/CSleepDSP/event_net.c`) runs exactly these: `patch` below is `sa_event_net_patch`, the
convolutions have their batch normalisation folded in at export (`export_tensors`), and the reference pair in the
model file checks that both give the same output."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import clip_loss
import eventdata as ed
import teacher as teacher_targets

C = len(ed.CLASSES)
BAND_GROUP = 2      # adjacent mel bands averaged: 64 -> 32
FRAME_GROUP = 4     # adjacent 10-ms frames averaged: 100 -> 25 (40-ms steps)
# Study (`train.py --independent-outputs`): every event type its own sigmoid output learnt by binary cross-entropy
# (none = no type on), instead of one softmax over none and the types; the engine runs only the softmax.
INDEPENDENT_OUTPUTS = False


def patch(M):
    """Window log-mel frames (N, frames, 64), floored, -> network input (N, 32 bands, frames / 4): bands and
    frames averaged in groups, minus the patch's mean (level is in the pooled statistics)."""
    M = np.asarray(M, np.float32)
    n, t, b = M.shape
    P = M.reshape(n, t // FRAME_GROUP, FRAME_GROUP, b // BAND_GROUP, BAND_GROUP).mean(axis=(2, 4))
    P -= P.mean(axis=(1, 2), keepdims=True)
    return np.ascontiguousarray(P.transpose(0, 2, 1))


class EventNet(nn.Module):
    """Convolutions over the patch, then each channel's mean and maximum over all positions joined with the
    statistics, dense layers and the output layer. Over time (`band_time` False): the patch's bands are the first
    convolution's input channels, kernel 3, max-pooling by 2 along time. Over band and time (`band_time` True,
    `sa_event_net` with band_time = 1): the patch is one input channel, 3 x 3 kernels, max-pooling by 2 x 2, so that
    a sound moved up or down the mel axis meets the same filters."""

    def __init__(self, stats, channels=(48, 64, 64), hidden=(128, 64), bands=64 // BAND_GROUP, dropout=0.3,
                 band_time=False):
        super().__init__()
        self.band_time = band_time
        convolution, norm = (nn.Conv2d, nn.BatchNorm2d) if band_time else (nn.Conv1d, nn.BatchNorm1d)
        self.convs = nn.ModuleList()
        self.norms = nn.ModuleList()
        previous = 1 if band_time else bands
        for c in channels:
            self.convs.append(convolution(previous, c, 3, padding=1))
            self.norms.append(norm(c))
            previous = c
        widths = [2 * previous + stats] + list(hidden)
        self.dense = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.out = nn.Linear(widths[-1], C)
        self.dropout = dropout

    def forward(self, P, X):
        return self.out(self.hidden(P, X))

    def hidden(self, P, X):
        """The last hidden layer (what the output layer classifies)."""
        h = P.unsqueeze(1) if self.band_time else P
        pool = F.max_pool2d if self.band_time else F.max_pool1d
        for i, (conv, norm) in enumerate(zip(self.convs, self.norms)):
            h = F.relu(norm(conv(h)))
            if i + 1 < len(self.convs):
                h = pool(h, 2)
        positions = tuple(range(2, h.dim()))
        z = torch.cat([h.mean(dim=positions), h.amax(dim=positions), X], dim=1)
        for layer in self.dense:
            z = F.dropout(F.relu(layer(z)), self.dropout, self.training)
        return z


class Standardiser:
    def __init__(self, X, P):
        self.x_mean = X.mean(axis=0, dtype=np.float64).astype(np.float32)
        self.x_std = (X.std(axis=0, dtype=np.float64) + 1e-6).astype(np.float32)
        self.p_mean = P.mean(axis=(0, 2), dtype=np.float64).astype(np.float32)
        self.p_std = (P.std(axis=(0, 2), dtype=np.float64) + 1e-6).astype(np.float32)

    def x(self, X):
        return ((X - self.x_mean) / self.x_std).astype(np.float32)

    def p(self, P):
        return ((P - self.p_mean[None, :, None]) / self.p_std[None, :, None]).astype(np.float32)


def spec_augment(P, rng):
    """Masks one random band range and one random time range per window (training only)."""
    n, b, t = P.shape
    P = P.copy()
    for k in range(n):
        if rng.random() < 0.5:
            w = rng.integers(1, 5)
            s = rng.integers(0, b - w)
            P[k, s:s + w] = 0.0
        if rng.random() < 0.5:
            w = rng.integers(1, 5)
            s = rng.integers(0, t - w)
            P[k, :, s:s + w] = 0.0
    return P


def fit(X, P, y, seed, epochs=25, weight_power=0.5, channels=(48, 64, 64), hidden=(128, 64), lr=2e-3,
        batch=256, mixup=0.0, variants=(), teacher=None, log=None, two_d=False, bags=None, bag_batch=16):
    """Trains the network (AdamW, one-cycle schedule, class weights, label smoothing, SpecAugment-style masks).
    With `mixup` > 0, pairs of windows are blended (inputs and targets) with a Beta(mixup, mixup) weight.
    `variants` are other versions (X, P) of the same windows (e.g. `spectral_tilt` equalised): each time a window
    is drawn, it is the original half of the time and one of the variants otherwise.
    `teacher` (`teacher.Targets`, optional) adds the distillation terms: the teacher's class probabilities and
    its embedding, for the windows that have them; windows labelled `teacher.UNLABELLED` learn from it alone.
    `bags` (`clip_loss.Bags`, optional) adds the clip-level term: every step also draws `bag_batch` training clips
    and scores each type's highest window probability in them."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    std = Standardiser(X, P)
    Xs, Ps = std.x(X), std.p(P)
    if variants:
        Xs = np.stack([Xs] + [std.x(Xv) for Xv, _ in variants])
        Ps = np.stack([Ps] + [std.p(Pv) for _, Pv in variants])
    counts = np.bincount(y[y >= 0], minlength=C).astype(float)
    w = (counts.sum() / np.maximum(counts, 1) / C) ** weight_power
    net = EventNet(X.shape[1], channels, hidden, P.shape[1], band_time=two_d)
    head = teacher.hint_head(hidden[-1]) if teacher is not None else None
    params = list(net.parameters()) + (list(head.parameters()) if head is not None else [])
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-3)
    steps = epochs * int(np.ceil(len(y) / batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    weights = torch.tensor(w, dtype=torch.float32)
    yt = torch.tensor(y)
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(y))
        total = 0.0
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            if variants:
                version = np.where(rng.random(len(idx)) < 0.5, 0, rng.integers(1, len(variants) + 1, len(idx)))
                pb = torch.from_numpy(spec_augment(Ps[version, idx], rng))
                xb = torch.from_numpy(Xs[version, idx])
            else:
                pb = torch.from_numpy(spec_augment(Ps[idx], rng))
                xb = torch.from_numpy(Xs[idx])
            if mixup > 0:
                lam = float(rng.beta(mixup, mixup))
                partner = torch.from_numpy(rng.permutation(len(idx)))
                pb = lam * pb + (1 - lam) * pb[partner]
                xb = lam * xb + (1 - lam) * xb[partner]
                logits = net(pb, xb)
                loss = lam * F.cross_entropy(logits, yt[idx], weight=weights, label_smoothing=0.05) + \
                    (1 - lam) * F.cross_entropy(logits, yt[idx][partner], weight=weights, label_smoothing=0.05)
            elif teacher is not None:
                h = net.hidden(pb, xb)
                logits = net.out(h)
                loss = F.cross_entropy(logits, yt[idx], weight=weights, label_smoothing=0.05,
                                       ignore_index=teacher_targets.UNLABELLED) + teacher.loss(idx, logits, h, head)
            elif bags is not None:
                flat, owner, labels = bags.draw(bag_batch, rng)
                bp, bx = _bag_inputs(bags, flat, std, rng)
                logits = net(torch.cat([pb, bp]), torch.cat([xb, bx]))
                loss = F.cross_entropy(logits[:len(idx)], yt[idx], weight=weights, label_smoothing=0.05)
                probabilities = torch.softmax(logits[len(idx):], dim=1)
                loss = loss + bags.weight * clip_loss.loss(probabilities, owner, labels, bags.class_weights)
            elif INDEPENDENT_OUTPUTS:
                loss = independent_loss(net(pb, xb), yt[idx], weights)
            else:
                loss = F.cross_entropy(net(pb, xb), yt[idx], weight=weights, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        if log:
            log(f"  epoch {epoch + 1}: loss {total / len(y):.4f}")
    net.eval()
    return net, std


def _bag_inputs(bags, flat, std, rng):
    """The drawn bags' windows as network inputs: each window original or one of its equalised copies (half the
    time each, as for the window batches), standardised, with the SpecAugment-style masks."""
    X, P = bags.X[flat], bags.P[flat]
    if bags.variants:
        version = np.where(rng.random(len(flat)) < 0.5, 0, rng.integers(1, len(bags.variants) + 1, len(flat)))
        for v, (Xv, Pv) in enumerate(bags.variants, start=1):
            use = version == v
            X[use], P[use] = Xv[flat[use]], Pv[flat[use]]
    return torch.from_numpy(spec_augment(std.p(P), rng)), torch.from_numpy(std.x(X))


def independent_loss(logits, y, weights, smoothing=0.05):
    """Binary cross-entropy of each event type's own output against "this window is that type" (none: every type
    off), smoothed like the softmax's labels, each window weighted by its class weight."""
    targets = F.one_hot(y, C)[:, 1:].float() * (1 - smoothing) + smoothing / 2
    per_window = F.binary_cross_entropy_with_logits(logits[:, 1:], targets, reduction="none").sum(dim=1)
    w = weights[y]
    return (per_window * w).sum() / w.sum()


def output_probabilities(logits):
    """Per window: the softmax, or with independent outputs each type's sigmoid and none as 1 − the highest."""
    if not INDEPENDENT_OUTPUTS:
        return torch.softmax(logits, dim=1)
    types = torch.sigmoid(logits[:, 1:])
    return torch.cat([1 - types.max(dim=1, keepdim=True).values, types], dim=1)


def predict(model, X, P, batch=4096):
    net, std = model
    out = []
    with torch.no_grad():
        for s in range(0, len(X), batch):
            logits = net(torch.from_numpy(std.p(P[s:s + batch])), torch.from_numpy(std.x(X[s:s + batch])))
            out.append(output_probabilities(logits).numpy())
    return np.concatenate(out) if out else np.zeros((0, C), np.float32)


def export_tensors(net):
    """The network's tensors as the model file stores them: each convolution with its batch normalisation folded
    in (out x in x 3 weights, or out x in x 3 (band) x 3 (time) over band and time; biases), then the dense layers
    (out x in weights, biases; the last is the output)."""
    tensors = []
    for i, (conv, norm) in enumerate(zip(net.convs, net.norms)):
        scale = (norm.weight / torch.sqrt(norm.running_var + norm.eps)).detach().numpy()
        weight = conv.weight.detach().numpy()
        weight = weight * scale.reshape((-1,) + (1,) * (weight.ndim - 1))
        bias = (conv.bias.detach().numpy() - norm.running_mean.detach().numpy()) * scale + norm.bias.detach().numpy()
        tensors += [(f"conv{i}.weight", weight.astype(np.float32)), (f"conv{i}.bias", bias.astype(np.float32))]
    layers = list(net.dense) + [net.out]
    for i, layer in enumerate(layers):
        tensors += [(f"dense{i}.weight", layer.weight.detach().numpy().astype(np.float32)),
                    (f"dense{i}.bias", layer.bias.detach().numpy().astype(np.float32))]
    return tensors

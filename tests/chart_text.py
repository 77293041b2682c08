"""What a reader sees of a chart's words: texts that run into each other or off the
figure.  Shared by the chart tests."""

from __future__ import annotations

from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.image import imsave
from matplotlib.text import Text


def drawn_texts(fig: Figure) -> list[Text]:
    """The visible, non-empty texts matplotlib draws (of the tick labels, only those
    inside their axis' limits)."""
    ticks, shown = set(), []
    for ax in fig.axes:
        for axis, (lo, hi) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks.update({id(tick.label1), id(tick.label2)})
                if min(lo, hi) <= tick.get_loc() <= max(lo, hi):
                    shown += [tick.label1, tick.label2]
    found = [t for t in fig.findobj(Text) if id(t) not in ticks] + shown
    return list({id(t): t for t in found if t.get_visible() and t.get_text().strip()}.values())


def drawn(fig: Figure, png: Path | None = None) -> RendererAgg:
    """``fig`` drawn (and saved as the picture ``png``, as drawn): its renderer, for
    :func:`overlapping_texts` and :func:`cut_texts` (a chart drawn once, not once each)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    if png is not None:
        imsave(png, canvas.buffer_rgba())
    return canvas.get_renderer()


def overlapping_texts(fig: Figure, renderer: RendererAgg | None = None) -> list[tuple[str, str]]:
    """Pairs of drawn texts whose boxes overlap by more than a pixel each way, and
    texts that run into a legend (its markers and lines included): ``(text, "the legend")``.
    ``renderer``: :func:`drawn`'s, if the figure has just been drawn."""
    renderer = drawn(fig) if renderer is None else renderer
    texts = drawn_texts(fig)
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    out = []
    # a legend's box (its markers and lines too) is no place for any other text
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    for legend in legends:
        if legend is None:
            continue
        own = {id(t) for t in [*legend.get_texts(), legend.get_title()]}
        box = legend.get_window_extent(renderer)
        for t, (text, b) in zip(texts, boxes, strict=True):
            if id(t) not in own and b.width and box.overlaps(b):
                inter = min(box.x1, b.x1) - max(box.x0, b.x0), min(box.y1, b.y1) - max(box.y0, b.y0)
                if inter[0] > 1 and inter[1] > 1:
                    out.append((text, "the legend"))
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i][1], boxes[j][1]
            if a.width and b.width and a.overlaps(b):
                inter = min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0)
                if inter[0] > 1 and inter[1] > 1:
                    out.append((boxes[i][0], boxes[j][0]))
    return out


def cut_texts(fig: Figure, renderer: RendererAgg | None = None) -> list[str]:
    """Drawn texts that reach beyond the figure's edges (by more than a pixel).
    ``renderer``: :func:`drawn`'s, if the figure has just been drawn."""
    renderer = drawn(fig) if renderer is None else renderer
    w, h = fig.bbox.width, fig.bbox.height
    out = []
    for t in drawn_texts(fig):
        b = t.get_window_extent(renderer)
        if b.x0 < -1 or b.y0 < -1 or b.x1 > w + 1 or b.y1 > h + 1:
            out.append(t.get_text())
    return out

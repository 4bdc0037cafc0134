"""Fonts, colours and markers shared by every figure, and the PNG + SVG writer.

Figures are made with :class:`matplotlib.figure.Figure` directly (no pyplot, no global
backend switch) inside :func:`figure_style`, a context that sets readable fonts for this
project's figures only and leaves the caller's matplotlib settings alone.

Colour is for our results: their curves are solid lines in the Okabe-Ito palette
(distinguishable with the common colour-vision deficiencies) without its black, then
dash-dotted in the same colours past the seventh curve. References are black: open
markers (the curve stays visible under them) or thin lines, one marker shape and one line
style per source family, so that a reference is never mistaken for one of our curves.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cycler import cycler
from matplotlib.ticker import ScalarFormatter

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

#: Okabe-Ito colours but black, which is the references' (a seventh curve, RN_BASE of a
#: block with four output points, would be black beside black reference lines), and but
#: its yellow, #F0E442, hard to see on white (DX_C1 of SDNV105): Paul Tol's wine instead
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255")
#: location -> colour of its curves, the same in every case and figure (a colour that
#: follows the order of the columns drawn makes RN_A green in SDNV105 A, C, D, yellow in B)
LOCATION_COLOURS: dict[str, str] = {"O": PALETTE[0], "A": PALETTE[1], "O1": PALETTE[2],
                                    "C1": PALETTE[3], "BASE": PALETTE[4]}
#: component -> line style of its curves: vertical and normal components solid,
#: horizontal and tangential ones dash-dotted, the third direction dotted
COMPONENT_STYLES: dict[str, str] = {
    **dict.fromkeys(("DX", "VX", "AX", "RX", "PX", "FT"), "-."),
    **dict.fromkeys(("DZ", "VZ", "AZ", "RY"), ":")}
#: line styles of our curves: solid, then dash-dotted in the same colours past the seventh
#: curve (an energy balance has ten terms; a repeated colour named two of them)
CURVE_STYLES = ("-", "-.")

#: look of a curve drawn over another it may equal: a resultant over a region (RN_BASE,
#: PN_BASE, drawn after the other curves) equals the reaction of the point that carries the
#: block (RN_O before impact 1), and SDND100 A's node moves along the diagonal (DX_NO1 =
#: DY_NO1); a solid curve on top hid the one under it, dashed and thinner it shows in the gaps
OVERLAID_LOOK: dict[str, Any] = {"linestyle": (0, (4, 3)), "linewidth": 1.1}
#: two curves closer than this fraction of the plot's range are drawn on the same pixels
#: (a line is about 1/400 of the axis height)
OVERLAP = 2e-3

#: source family -> (marker, line style)
FAMILY_STYLE: dict[str, tuple[str, Any]] = {
    "analytic rigid": ("o", (0, (6, 2))),
    "rigid": ("s", "--"),
    "recalage": ("D", "-."),
    "LMGC90": ("v", ":"),
    "Code_Aster": ("^", (0, (3, 1, 1, 1, 1, 1))),
    "analytic": ("X", "--"),
    "other": ("P", ":"),
}
REFERENCE_COLOUR = "black"
#: line width of the reference segments and lines (pt): thinner than our curves (1.4)
REFERENCE_LINEWIDTH = 1.1
#: drawing order of the reference segments and lines: under our curves (2), over the grid
#: and the impact shading (0). On top, two references a pixel apart (SDNV105's rigid and
#: Code_Aster pivot reactions, 3579 and 3600 N) hid the reaction they bracket; under it,
#: they show where our curve leaves them. Reference points stay on top: open markers.
REFERENCE_LINE_ZORDER = 1.9

#: marker shapes used when a family's own is taken (each legend label gets its own shape)
_ALTERNATES = ("p", "h", "*", "<", ">", "d", "8", "H", "x", "+", "1", "2")
#: line styles used when a family's own is taken, unlike the families' and one another
_DASH_ALTERNATES: tuple[Any, ...] = (
    (0, (2, 2)), (0, (12, 2, 2, 2)), (0, (1, 3)), (0, (12, 4)), (0, (6, 2, 1, 2, 1, 2)),
    (0, (4, 4)))

RC: dict[RcKeyType, Any] = {
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "legend.fontsize": 9,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 1.4,
    "axes.prop_cycle": (cycler(linestyle=list(CURVE_STYLES)) * cycler(color=list(PALETTE))),
    "axes.formatter.useoffset": False,
    # never a "1e-4" multiplier above the axis (it hid SDND100 A's displacements and the
    # smallest gap's values): plain numbers, the figures scaling small data by a display
    # unit (:func:`display_unit`)
    "axes.formatter.limits": (-30, 30),
    "svg.hashsalt": "rocking_contact",  # same plot, same SVG bytes
    "svg.fonttype": "none",  # text stays text: smaller, searchable
}

#: figure size (in) and PNG resolution (dpi): 1040 x 585 px, readable on a laptop screen
FIGSIZE = (8.0, 4.5)
DPI = 130


@contextlib.contextmanager
def figure_style() -> Iterator[None]:
    """Use this project's figure settings inside the ``with`` block only."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield


def new_figure(nrows: int = 1, *, height: float | None = None, sharex: bool = True) -> Any:
    """A figure with ``nrows`` stacked axes; returns ``(figure, [axes...])``."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(FIGSIZE[0], height or FIGSIZE[1]), layout="constrained")
    axes = fig.subplots(nrows, 1, sharex=sharex, squeeze=False)[:, 0]
    return fig, list(axes)


def save_figure(fig: Any, out_dir: Path, stem: str) -> list[Path]:
    """Write ``<stem>.png`` (:func:`write_png`) and ``<stem>.svg`` into ``out_dir``;
    returns both paths.

    The figure's layout is frozen after the PNG (its engine removed): the SVG reuses the
    axes positions the PNG's constrained layout found (in figure fractions, so at any
    resolution) rather than running it again, a third of the SVG's drawing time.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{stem}.png", out_dir / f"{stem}.svg"
    drawn = io.BytesIO()
    fig.savefig(drawn, format="png", dpi=DPI, metadata={"Software": None})
    write_png(drawn, png)
    fig.set_layout_engine("none")
    fig.savefig(svg, metadata={"Date": None, "Creator": None})
    return [png, svg]


def curve_look(where: str, component: str, taken: Iterable[tuple[str, str]] = ()
               ) -> dict[str, str]:
    """Colour and line style of our curve of ``component`` at ``where``: the location's
    colour (:data:`LOCATION_COLOURS`; a discrete node ``NO<k>`` the k-th of the palette,
    any other location the first colour whose look is not ``taken`` in the figure) and
    the component's line style (:data:`COMPONENT_STYLES`)."""
    linestyle = COMPONENT_STYLES.get(component, "-")
    node = re.fullmatch(r"NO(\d+)", where)
    colour = (LOCATION_COLOURS.get(where)
              or (PALETTE[(int(node.group(1)) - 1) % len(PALETTE)] if node else None))
    used = set(taken)
    if colour is None or (colour, linestyle) in used:
        colour = next((c for c in PALETTE if (c, linestyle) not in used), colour or PALETTE[0])
    return {"color": colour, "linestyle": linestyle}


#: energy term -> (colour, line style), the same in every run whatever terms it has: the
#: kinetic energies blues, the dissipations and works dash-dotted
ENERGY_LOOKS: dict[str, tuple[str, str]] = {
    "EKIN": (PALETTE[0], "-"), "EKIN_BLOCK": (PALETTE[5], "-"), "EELAS": (PALETTE[2], "-"),
    "EPOT_GRAV": (PALETTE[3], "-"), "ETOT": (PALETTE[1], "-"), "EDAMP": (PALETTE[4], "-"),
    "ECONTACT": (PALETTE[6], "-"), "EFRICTION": (PALETTE[1], "-."),
    "ESPRING": (PALETTE[2], "-."), "ESTICK": (PALETTE[3], "-."),
    "EPROJECTION": (PALETTE[5], "-."), "ETABLE": (PALETTE[4], "-.")}


def energy_look(name: str, taken: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """Colour and line style of the energy term ``name`` (:data:`ENERGY_LOOKS`; another
    term the first look of the palette, solid then dash-dotted, not ``taken``)."""
    used = set(taken)
    look = ENERGY_LOOKS.get(name)
    if look is None or look in used:
        look = next(((c, ls) for ls in CURVE_STYLES for c in PALETTE if (c, ls) not in used),
                    (PALETTE[0], "-"))
    return {"color": look[0], "linestyle": look[1]}


#: SI prefixes of a display unit, by power of ten
_PREFIXES = {-9: "n", -6: "µ", -3: "m", 3: "k", 6: "M"}
#: data whose largest magnitude lies in [SI_RANGE[0], SI_RANGE[1]) keep their SI unit
SI_RANGE = (1e-2, 1e5)


def display_unit(ax: Any, unit: str) -> str:
    """Scale the tick labels of ``ax``'s y axis to a prefixed unit (``m`` -> ``µm``) when
    its extent falls outside :data:`SI_RANGE`, so that they read 0-999 without a
    multiplier; returns the unit to put in the label (``unit`` as it is when unchanged or
    empty, a count). Set the axis limits first: they choose the prefix."""
    lo, hi = ax.get_ylim()
    power = _power(max(abs(lo), abs(hi))) if unit else 0
    if power == 0:
        return unit
    ax.yaxis.set_major_formatter(_ScaledFormatter(10.0 ** power))
    return _PREFIXES[power] + unit


def _power(largest: float) -> int:
    """The power of ten (a multiple of 3) of the display unit of values up to ``largest``
    in magnitude: 0 within :data:`SI_RANGE`."""
    if largest == 0.0 or not math.isfinite(largest) or SI_RANGE[0] <= largest < SI_RANGE[1]:
        return 0
    return min(max(3 * math.floor(math.log10(largest) / 3), -9), 6)


def with_unit(value: float, unit: str) -> str:
    """``value`` (in ``unit``) to 3 significant digits in its display unit: ``-120 µJ``."""
    power = _power(abs(value))
    return f"{value / 10.0 ** power:.3g} {_PREFIXES.get(power, '')}{unit}"


class _ScaledFormatter(ScalarFormatter):
    """Plain tick labels of the values divided by ``scale``."""

    def __init__(self, scale: float) -> None:
        super().__init__(useOffset=False)
        self.set_scientific(False)
        self.scale = scale

    def set_locs(self, locs: Any) -> None:
        super().set_locs([loc / self.scale for loc in locs])

    def __call__(self, x: float, pos: int | None = None) -> str:
        return super().__call__(x / self.scale, pos)


#: largest mean change of a pixel (0-255, the largest of its channels) that a 256-colour
#: PNG may make: the project's figures change by 0.1-0.15 on average (the antialiased
#: edges of their lines), invisibly; a figure past it (a colour map) stays RGB
PALETTE_MEAN_CHANGE = 1.0


#: colour of our extremum whose graded check fails: a red that is none of our curves'
#: (the palette's vermillion is corner A's), drawn as :data:`MISS_LOOK`
MISS_COLOUR = "#E8000B"
#: look of that extremum: a large cross, red with a white edge, over the curves and the
#: axis frame (SDNV105 A's 4097 N at t = 0 sat on the frame)
MISS_LOOK: dict[str, Any] = {"marker": "X", "markersize": 11, "color": MISS_COLOUR,
                             "markeredgecolor": "white", "markeredgewidth": 0.8,
                             "linestyle": "none", "zorder": 3.5}

#: the colours a figure draws with, kept exact in its 256-colour PNG: a quantizer alone
#: merged a small legend key's pure colour with its neighbours (the preload's EELAS green
#: became teal, DX_O's blue too)
KEPT_COLOURS = (*PALETTE, "#000000", "#FFFFFF", "#808080", MISS_COLOUR)


def _palette_image(rgb: Any, kept: Sequence[str]) -> Any:
    """``rgb`` in 256 colours: the ``kept`` ones exact, PIL's maximum-coverage palette of
    ``rgb`` for the rest, each pixel its nearest (PIL's own remapping to a given palette
    rounds the colours first, 2.9 levels off on average).

    Maximum coverage rather than median cut: median cut spent its colours on the most
    frequent ones and left the rare ones of a colour map in bands (SDNV105 A's views,
    800 px: the top of the stress colour bar and the block's hot corner up to 55 levels
    off; the report's 43 figures and views of A, C, D and the rigid run: at most 66
    levels, 12094 pixels past 16), maximum coverage at most 15 levels off and none past
    16, in 12 % fewer bytes (957 kB for 1084 kB) at a larger mean change (0.53 at most,
    0.15) still far under :data:`PALETTE_MEAN_CHANGE`."""
    import numpy as np
    from matplotlib.colors import to_rgb
    from PIL import Image

    fixed = np.array([[round(255 * c) for c in to_rgb(colour)] for colour in kept])
    cut = rgb.quantize(256 - len(kept), method=Image.Quantize.MAXCOVERAGE,
                       dither=Image.Dither.NONE)
    used = len(cut.getcolors(256) or [])
    colours = np.vstack([fixed, np.reshape(cut.getpalette()[:3 * used], (-1, 3))])
    pixels = np.asarray(rgb, dtype=np.int32)
    keys, where = np.unique((pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2],
                            return_inverse=True)
    unique = np.stack([keys >> 16, (keys >> 8) & 255, keys & 255], axis=1)
    nearest = ((unique[:, None, :] - colours[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    image = Image.fromarray(nearest.astype(np.uint8)[where].reshape(pixels.shape[:2]), "P")
    image.putpalette(colours.astype(np.uint8).ravel().tolist())
    return image


def write_png(source: Any, path: Path) -> None:
    """Write the image ``source`` (a PNG file or buffer matplotlib drew, or an RGB or RGBA
    array of 8-bit values a 3D view rendered) to ``path`` as an 8-bit palette PNG when 256
    colours keep it visibly the same (:data:`PALETTE_MEAN_CHANGE`), else as RGB:
    matplotlib's RGBA PNGs are 2.6 times larger (the report's 110 images 6.79 MB, 2.66 MB
    in 256 colours), their alpha channel all opaque; pyvista's RGB views 3 times (the
    report's 800 px views of SDNV105 A, C and D at their two instants: 329 kB, 111 kB in
    256 colours, a mean change of 0.47 at most)."""
    import numpy as np
    from PIL import Image

    if isinstance(source, np.ndarray):
        rgb = Image.fromarray(np.ascontiguousarray(source[..., :3], dtype=np.uint8), "RGB")
    else:
        with Image.open(source) as image:
            rgb = image.convert("RGB")
    palette = _palette_image(rgb, KEPT_COLOURS)
    change = np.abs(np.asarray(rgb, dtype=np.int16)
                    - np.asarray(palette.convert("RGB"), dtype=np.int16)).max(axis=2)
    (palette if change.mean() <= PALETTE_MEAN_CHANGE else rgb).save(path, "PNG",
                                                                    optimize=True)


class MarkerStyles:
    """Reference look per legend label: the family's marker shape and line style, then
    alternates when a family has several sources in the figure (two sources of one family
    with segments only, SDNV105's "analytic rigid" and "analytic rigid, integrated" lifts,
    had one dashed key for both), and when two families share a line style."""

    def __init__(self) -> None:
        self._shapes: dict[str, str] = {}
        self._dashes: dict[str, Any] = {}

    def __call__(self, family: str, label: str) -> dict[str, Any]:
        """Keyword arguments for ``Axes.plot`` drawing this source's open markers, plus
        ``linestyle_ref`` for its lines."""
        first, dashes = FAMILY_STYLE.get(family, FAMILY_STYLE["other"])
        return {"color": REFERENCE_COLOUR,
                "marker": _own(self._shapes, label, (first, *_ALTERNATES)),
                "markerfacecolor": "none", "markeredgewidth": 1.3, "markersize": 8,
                "linestyle": "none",
                "linestyle_ref": _own(self._dashes, label, (dashes, *_DASH_ALTERNATES))}


#: colour of the references for information (no pass mark): grey, so that a graded
#: reference, black, stands out (SDNV105 D's Code_Aster A triangles, information only,
#: sat far from the curve and looked like a failure)
INFO_COLOUR = "0.5"


def reference_look(kw: dict[str, Any], graded: bool | None) -> dict[str, Any]:
    """``kw`` of :class:`MarkerStyles` made heavier for a graded reference (filled marker,
    thicker edge and lines), lighter and grey for an information one; as it is when not
    said (None). Adds ``linewidth_ref``, the width of its lines."""
    out = {**kw, "linewidth_ref": REFERENCE_LINEWIDTH}
    if graded:
        # the edge's own colour: unset, matplotlib gives it the fill's transparency, and
        # the graded marker comes out grey (its darkest pixel 108 of 255)
        out.update(markerfacecolor=(0.0, 0.0, 0.0, 0.35), markeredgewidth=1.8,
                   markeredgecolor=out.get("color", "black"), linewidth_ref=1.6)
    elif graded is False:
        out.update(color=INFO_COLOUR, markeredgewidth=1.0, linewidth_ref=0.9)
    return out


def band_look(graded: bool | None) -> dict[str, Any]:
    """Keyword arguments of a pass band's box: translucent, edged, under our curves."""
    face = (0.0, 0.0, 0.0, 0.10) if graded is not False else (0.5, 0.5, 0.5, 0.08)
    return {"facecolor": face, "edgecolor": "0.3", "linewidth": 0.8, "zorder": 1.8}


def _own(given: dict[str, Any], label: str, choices: tuple[Any, ...]) -> Any:
    """The look ``given`` to ``label``, else the first of ``choices`` no other label has
    (the first choice when all are taken), now given to it."""
    if label not in given:
        taken = list(given.values())
        given[label] = next((c for c in choices if c not in taken), choices[0])
    return given[label]


def place_legend(ax: Any, *, outside_above: int = 4,
                 under: Mapping[str, Sequence[Any]] | None = None) -> None:
    """A legend without duplicate labels; below the axes, in columns, when it is long.
    ``under``: label -> artists whose keys are drawn under its own (one entry for what
    is drawn on one spot).

    Below rather than beside: the time axis keeps the figure's whole width.
    """
    handles, labels = ax.get_legend_handles_labels()
    unique: dict[str, Any] = {}
    for label, handle in zip(labels, handles):
        # a tuple's keys are drawn on top of each other (matplotlib's HandlerTuple)
        unique.setdefault(label, (*(under or {}).get(label, ()), handle)
                          if (under or {}).get(label) else handle)
    if not unique:
        return
    if len(unique) > outside_above:
        longest = max(len(line) for label in unique for line in label.splitlines())
        ncols = 1 if longest > 64 else 2 if longest > 30 else 3
        ax.figure.legend(unique.values(), unique.keys(), loc="outside lower center",
                         ncols=ncols)
    else:
        ax.legend(unique.values(), unique.keys(), loc="best")

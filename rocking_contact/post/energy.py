"""The energy balance of a finished block run, read from its history.

The balance itself, ``E(t) - E(t0) + D_damp(t) + E_contact(t) - W_table(t) = 0`` with its
residual ``ENERGY_RESIDUAL`` (what the time discretisation creates, > 0, or dissipates,
< 0), is kept step by step by :class:`~rocking_contact.fem.energy_balance.EnergyBalance`.
This module reads a run's history: :func:`summary` (final terms, largest residual, the
largest rise of the total energy), :func:`created_energy` and :func:`rise_warning` (energy
the steps created, or that the released state held: :func:`from_release`,
:func:`from_table_release`), the dissipations that gave energy back (:func:`given_steps`,
each step's rise counted once; :func:`given_back`, :func:`dissipation_warning`), what the
springs' laws supplied (:func:`restick_warning`, :func:`anchor_warning`), :func:`remedy`
(what makes the steps create less) and :func:`run_warnings` (the warnings a run says).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rocking_contact.time.schemes import SCHEMES

#: A rise of the total energy above its released value larger than this fraction of the
#: energy of the motion is reported as a warning (:func:`summary`: the block's largest
#: kinetic energy or the gravity potential it is released with, whichever is larger; the
#: potential, 7.29 J for SDNV105, so that a run of a few steps, whose kinetic energy is
#: still small, is judged as the whole run is). The shipped SDNV105 runs rise by 3e-7 (A,
#: C) to 1e-5 (B) of it, the 0.02 m meshes by 6e-4 (the corner's ringing in the first
#: release step); an impact taken in a long average-acceleration step gains whole joules
#: (docs/contact.md, "Sensitivity").
RISE_WARNING = 0.01

#: a dissipation that gave less than this fraction of what they all gave is left out of the
#: warning's list, whose total counts it (SDNV105 A's damping, 5e-7 J of 0.0026 J)
NAMED = 0.01

#: The energy of the motion is at least this fraction of the largest energy term of the run
#: (|EKIN|, |EELAS|, |EPOT_GRAV|, |ESPRING|): a block left at rest has none, and judged
#: against its kinetic energy alone the round-off of its total energy would be a rise of
#: 2e18 % (2.7e-20 J of 2e-4 J against 1e-36 J for SDNV105's block flat on its springs).
#: The solvers stop at ~1e-10 of their first residual; 1e-9 leaves a margin.
ROUND_OFF = 1e-9


def motion_floor(case: Any) -> float:
    """The least energy of the motion (J) of a block case, whatever its history holds: the
    gravity potential ``M g b theta_lift`` of the smallest swing that lifts the block
    (:func:`~rocking_contact.post.collisions.lift_angle`: 0.0050 J for a 0.25 x 0.6 m
    concrete block, 3.1e-4 J for SDNV105's), and at least ``E V eps``, the elastic energy
    of the block at a strain of ``sqrt(2 eps)`` = 2.1e-8 (eps the machine epsilon), below
    what the solvers resolve (1.0e-6 J for that concrete block without gravity). A block
    that never lifts, or that nothing moves, has only round-off and elastic ringing to
    judge: its 1e-8 J of kinetic energy made a residual of 3.6e-9 J "38 %" of it, and a
    rise of 6.5e-25 J "4.7e+03 %" of the energy of the motion of a block at rest without
    gravity."""
    from rocking_contact.block import block_mass
    from rocking_contact.post.collisions import lift_angle

    geometry, block = case.geometry, case.material.block
    mass = block_mass(geometry, block)
    lift = mass * case.loading.gravity * geometry.half_width * lift_angle(case)
    return float(max(lift, block.young * mass / block.density * np.finfo(float).eps))


def summary(history: dict[str, np.ndarray], least: float = 0.0, *,
            steps: dict[str, np.ndarray] | None = None) -> dict[str, float]:
    """The balance of a run from its history: final terms, largest |residual| (J), the
    residual relative to the kinetic energy peak, the largest rise of the total energy
    above its released value (``ETOT_rise_*``) and above the lowest value it had reached
    before (``ETOT_regain_*``, the springs' store counted) (J, what a shaking table, the
    springs' friction law and their closing anchors supplied left out: ``ESPRING_closing``
    the anchors', :func:`closing_store`; and relative to the energy of the motion: the
    kinetic energy peak or the released gravity potential, whichever is larger, at least
    :data:`ROUND_OFF` of the largest energy term and at least ``least``, the case's
    :func:`motion_floor` (J); ``motion_floor``, that floor, when it decided), and what the
    dissipations gave the block back (:func:`given_steps`): ``given_back_total`` over the
    run, ``given_back_max`` in one step (J), that step's end ``given_back_time`` (s; absent when
    nothing was given back) and
    ``given_back_relative``, that step's over the energy of the motion. ``steps``: the
    history's :func:`given_steps` when the caller has them (a run's, which its warnings
    read too), else computed here."""
    if "ENERGY_RESIDUAL" not in history or not len(history["time"]):
        return {}
    res = np.asarray(history["ENERGY_RESIDUAL"])
    out = {"residual_final": float(res[-1]), "residual_max_abs": float(np.max(np.abs(res)))}
    for name in ("EKIN", "EELAS", "EPOT_GRAV", "ETOT", "EDAMP", "ECONTACT", "EFRICTION",
                 "ESPRING", "ESTICK", "ETABLE"):
        if name in history:
            out[f"{name}_final"] = float(history[name][-1])
    if "ETOT" in history:
        # With gravity a potential, only a shaking table's work can raise the total energy
        # above its released value: a rise beyond it is energy created by the numerics (a
        # contact treatment's work is in the residual's balance, so the residual does not
        # show it).
        etot, anchored = own_total(history)
        if anchored is not None:
            out["ESPRING_closing"] = float(anchored[-1])
        rise = etot - etot[0]
        out["ETOT_initial"] = float(etot[0])
        out["ETOT_rise_max"] = float(max(np.max(rise), 0.0))
        out["ETOT_rise_time"] = float(np.asarray(history["time"])[int(np.argmax(rise))])
        # Energy created after impacts took more away stays below the released value: the
        # mechanical energy (the springs' store included: they give it back) may only fall,
        # so any rise above its lowest value so far is the numerics'.
        mechanical = with_store(history, etot)
        regain = mechanical - np.minimum.accumulate(mechanical)
        out["ETOT_regain_max"] = float(np.max(regain))
        out["ETOT_regain_time"] = float(np.asarray(history["time"])[int(np.argmax(regain))])
    peak = float(np.max(history["EKIN_BLOCK"])) if "EKIN_BLOCK" in history else 0.0
    if peak > 0:
        out["residual_relative_to_peak_ekin"] = out["residual_max_abs"] / peak
    released = float(history["EPOT_GRAV"][0]) if "EPOT_GRAV" in history else 0.0
    terms = [float(np.max(np.abs(history[n]))) for n in ("EKIN", "EELAS", "EPOT_GRAV",
                                                         "ESPRING") if n in history]
    motion = max(peak, released, ROUND_OFF * max(terms, default=0.0))
    if least > motion:
        motion = out["motion_floor"] = least
    out["motion"] = motion
    if "ETOT_rise_max" in out and motion > 0:
        out["ETOT_rise_relative"] = out["ETOT_rise_max"] / motion
        out["ETOT_regain_relative"] = out["ETOT_regain_max"] / motion
    gifts = gifts_of(given_steps(history) if steps is None else steps)
    if "ETOT" in history and len(gifts):
        k = int(np.argmax(gifts))
        out["given_back_total"] = float(np.sum(gifts))
        out["given_back_max"] = float(gifts[k])
        if gifts[k] > 0.0:  # else no step to name (the argmax of zeros is the first)
            out["given_back_time"] = float(np.asarray(history["time"])[k + 1])
        if motion > 0:
            out["given_back_relative"] = out["given_back_max"] / motion
    return out


def own_total(history: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
    """The total energy ``ETOT`` less what no step created (J, a value a row): a shaking
    table's work (``ETABLE``), what the springs' friction law supplied (``ESTICK``,
    contact/penalty) and what their anchors took as they closed (:func:`closing_store`,
    the second value, None without springs)."""
    etot = np.asarray(history["ETOT"])
    for source in ("ETABLE", "ESTICK"):
        if source in history:
            etot = etot - np.asarray(history[source])
    anchored = closing_store(history)
    if anchored is not None:
        etot = etot - anchored
    return etot, anchored


def with_store(history: dict[str, np.ndarray], etot: np.ndarray) -> np.ndarray:
    """``etot`` (J) with the springs' store ``ESPRING`` added, the mechanical energy that
    may only fall (the springs give their store back)."""
    return etot + np.asarray(history["ESPRING"]) if "ESPRING" in history else etot


def closing_store(history: dict[str, np.ndarray]) -> np.ndarray | None:
    """What the shock springs stored as they closed with no work behind it (J, summed
    from the release, a value a row), None without springs: in a step where a support
    closes (``CONTACTS`` rises), the springs' store (``ESPRING``) rising by more than their
    work on the block (``ECONTACT``). A spring's anchor closes stretched by its node's
    tangential displacement since the mesh, ``ka x_t^2 / 2`` (Code_Aster's ``K_T_D_N`` on
    the total displacement, contact/penalty): SDNV105 B standing on its springs, shaken
    at 4 m/s^2, 2.4e-6 to 6.0e-6 J each time A's spring closes again (x_t 1.3e-8 to
    2.0e-8 m, 3e10 N/m), which smaller steps do not change."""
    if not all(name in history for name in ("ESPRING", "ECONTACT", "CONTACTS")):
        return None
    contacts = np.asarray(history["CONTACTS"])
    closing = np.r_[False, contacts[1:] > contacts[:-1]]
    excess = np.r_[0.0, np.diff(history["ESPRING"]) - np.diff(history["ECONTACT"])]
    return np.cumsum(np.where(closing, np.maximum(excess, 0.0), 0.0))


#: what a rise of the total energy above its released value rose above (:class:`Created`)
RELEASED = "its released value"


class Created(NamedTuple):
    """Energy the time steps created (:func:`created_energy`).

    Attributes:
        energy: the largest rise of the total energy (J).
        time: when it was largest (s).
        relative: ``energy`` over the energy of the motion.
        above: what it rose above: ``its released value`` or ``the lowest value it had
            reached``.

    """

    energy: float
    time: float
    relative: float
    above: str


def created_energy(energy: dict[str, float]) -> Created | None:
    """The energy the steps created, when the total energy rose above its released value,
    or above the lowest value it had reached, by more than :data:`RISE_WARNING` of the
    energy of the motion (a :func:`summary`); None otherwise."""
    for key, above in (("rise", RELEASED),
                       ("regain", "the lowest value it had reached")):
        relative = energy.get(f"ETOT_{key}_relative")
        if relative is not None and relative > RISE_WARNING:
            return Created(energy[f"ETOT_{key}_max"], energy[f"ETOT_{key}_time"], relative,
                           above)
    return None


#: the advice to a run of a velocity-level scheme (the theta scheme, SDNV105 D), whose
#: contact refuses [time.refine]
THETA_ADVICE = "use a smaller time.step (the theta scheme takes no [time.refine])"

#: where the advice is explained: the theta scheme's steps on its own page, the other
#: schemes' sensitivity to their steps and the refinement on the contact page
EXPLAINED = {THETA_ADVICE: "docs/theta.md, 'Steps that create energy'"}
EXPLAINED_ELSE = "docs/contact.md, 'Sensitivity'"


def remedy(scheme: str, contact: bool, refining: bool, hold: float | None = None) -> str:
    """What makes a run's steps create less energy, as advice: a smaller ``time.step``
    always; ``[time.refine]`` (new steps at the contact changes) for a run with contact
    (``contact``) whose scheme takes it, which a velocity-level scheme (``scheme``, a
    ``scheme.type`` whose :data:`~rocking_contact.time.schemes.SCHEMES` entry has a velocity
    unknown: ``theta``, SDNV105 D) refuses (its contact takes contact changes in any step);
    where it is on already (``refining``), a longer ``time.refine.hold`` (``hold``, s, the
    case's, quoted when given) and a smaller refined step. The hold comes first: a contact
    that stays closed works in the long steps that follow its change, which the refinement
    leaves long unless held (a 0.3 x 1.2 m granite block on ``hold = 0``, 2.5 ms steps after
    its first landing: 0.44 J created in one of them, 0.69 J with refined steps of 5 us,
    0.56 J with 1.25 ms steps, 0.0012 J with ``hold = 0.005``; docs/contact.md,
    "Sensitivity")."""
    if SCHEMES[scheme].unknown == "velocity":
        return THETA_ADVICE
    if not contact:
        return "use a smaller time.step"
    if refining:
        now = "" if hold is None else f", now {hold:.3g} s"
        return (f"use a longer time.refine.hold (how long the refined steps go on after a "
                f"contact change{now}), or a smaller time.step or time.refine.step")
    return "use a smaller time.step, or enable [time.refine]"


def supplied_warning(energy: dict[str, float], key: str, sentence: str) -> str | None:
    """``sentence`` (``str.format``-ed with ``supplied``, J, and ``share``, "x% of the
    energy of the motion") when the energy a spring law supplied, ``energy[key]`` (J, of a
    :func:`summary`), is more than :data:`RISE_WARNING` of the energy of the motion; None
    when it is not, or the run has no motion."""
    supplied = energy.get(key, 0.0)
    motion = energy.get("motion", 0.0)
    if not motion > 0.0 or supplied <= RISE_WARNING * motion:
        return None
    return sentence.format(supplied=supplied,
                           share=f"{100 * supplied / motion:.3g}% of the energy of the motion")


def restick_warning(energy: dict[str, float]) -> str | None:
    """A sentence when the shock springs' friction law supplied more than
    :data:`RISE_WARNING` of the energy of the motion to springs that stuck again after
    sliding (``ESTICK``, :mod:`rocking_contact.contact.penalty`), None otherwise. The
    energy checks count it as supplied; the user is told it is there and where it comes
    from."""
    return supplied_warning(
        energy, "ESTICK_final",
        "the shock springs' friction law supplied {supplied:.4g} J ({share}, column ESTICK): "
        "a spring that slides carries mu RN without stretching, and when it sticks again it "
        "starts from that force as if stretched Ft / kt, then gives the block Ft^2 / (2 kt) "
        "that no work put there; smaller steps do not remove it, a larger tangential "
        "stiffness kt makes it smaller")


def anchor_warning(energy: dict[str, float]) -> str | None:
    """A sentence when the shock springs' anchors stored more than :data:`RISE_WARNING` of
    the energy of the motion as they closed (``ESPRING_closing``, :func:`closing_store`),
    None otherwise. The energy checks count it as supplied, as ESTICK is; the user is told
    it is there and where it comes from."""
    return supplied_warning(
        energy, "ESPRING_closing",
        "the shock springs' anchors took {supplied:.4g} J as they closed ({share}): a closing "
        "spring's anchor (anchor_stiffness ka) starts stretched by its node's tangential "
        "displacement since the mesh, ka x_t^2 / 2 that no work put there, which it may give "
        "the block and loses when it opens; smaller steps do not remove it")


def released_store(history: dict[str, np.ndarray]) -> float:
    """The energy the springs hold in the released state (J): ``ESPRING`` of the first
    row, 0 without the column. The total energy (ETOT) leaves it out, so a rise of ETOT
    up to it is that store given back, not energy the steps created."""
    if "ESPRING" not in history or not len(history["ESPRING"]):
        return 0.0
    return float(history["ESPRING"][0])


def from_release(created: Created, stored: float, below: float = 0.0,
                 pressed: bool = True) -> str | None:
    """The cause of a rise of the total energy (:func:`created_energy`) that the springs'
    store in the released state (``stored``, J, :func:`released_store`) covers, None
    otherwise: a spring pressed into the ground at the release (a negative
    ``contact.spring.N.gap``) pushes the block with that energy, which smaller steps do
    not change (SDNV105 B with gap = -1 m: 1.5e10 J stored, 8.4e8 J in ETOT by 0.1 ms,
    where "use a smaller time.step" is the wrong advice); so does a base the preload
    released turned back, its lowest node ``below`` (m, > 0) the corner O, which the
    release lowers onto O's spring (SDNV105 B with preload.tilt = 1e-9: 2.23e-8 m, 1.0e-3
    J stored against the weight's 2.8e-4 J, its gap and stiffness not to blame); and, with
    no gap negative (``pressed`` False), a release that pressed several springs: it lowers
    the block onto the spring under the loaded support by the load over that spring's
    stiffness, which presses a spring whose node stands less than that above it (SDNV105
    B with preload.tilt = 9.8e-8: A 1.26e-8 m above O, lowered 1.37e-7 m; 7.9e-4 J)."""
    # a rise above the lowest value reached counts the springs' store already
    if created.above != RELEASED or not created.energy <= stored:
        return None
    held = (f"the springs held {stored:.4g} J in the released state (column ESPRING at its "
            f"first row), which they gave the block")
    if below > 0.0:
        return (f"{held}: the preload released its base turned back, its lowest node "
                f"{below:.3g} m below the corner O, whose spring takes the block, so that "
                f"the others are pressed beyond their share (the preload's tilt warning says "
                f"which preload.tilt releases the base above O)")
    if not pressed:
        return (f"{held}: no spring starts in the ground (every contact.spring's gap >= 0), "
                f"so the release pressed more than one: it lowers the block onto the spring "
                f"under the loaded support by the load over that spring's normal_stiffness, "
                f"pressing the springs whose nodes stand less than that above it (a small "
                f"preload.tilt; preload.tilt = 0 settles the block on them all)")
    return (f"{held}: check contact.spring's gap (negative: pressed into the ground at the "
            f"release) and normal_stiffness")


#: a base deeper in the table at the release (``GAP_MIN`` of the first row) than this
#: fraction of its width was put there by the preload, not by round-off: the gaps'
#: round-off is ~1e-16 of the coordinates, and a depth of 1e-12 of SDNV105's base, pushed
#: out in a 1e-5 s step, gives the block ~1e-13 J, far below any rise warned of
RELEASE_DEPTH = 1e-12


def released_depth(history: dict[str, np.ndarray], width: float) -> float:
    """How deep (m) the block's base stood in the table at the release: ``-GAP_MIN`` of the
    first row when beyond :data:`RELEASE_DEPTH` of the base's ``width`` (m), else 0 (and
    without the column: a run without a table contact)."""
    if "GAP_MIN" not in history or not len(history["GAP_MIN"]):
        return 0.0
    depth = -float(history["GAP_MIN"][0])
    return depth if depth > RELEASE_DEPTH * width else 0.0


def from_table_release(created: Created, depth: float) -> str | None:
    """The cause of a rise of the total energy (:func:`created_energy`) when the block was
    released with its base ``depth`` (m, :func:`released_depth`) in the table, None if it
    was not: the contact pushes the base out in the first step at about depth over step,
    so that smaller steps create more of it, not less (SDNV105 A with preload.tilt = 1e-9,
    released 2.27e-8 m deep: 1.5e-4 J at 1e-4 s steps, 3.3e-3 J at 1e-5 s, 8.1e-2 J at
    1e-6 s, where "use a smaller time.step" is the wrong advice)."""
    if created.above != RELEASED or not depth > 0.0:
        return None
    return (f"the block was released with its base {depth:.3g} m into the table (GAP_MIN at "
            f"its first row), which the contact pushed out in the first step, the faster the "
            f"shorter the step: smaller steps create more of it, not less; release the base "
            f"above the table (the preload's tilt warning says which preload.tilt does, and "
            f"preload.tilt = 0 releases the block flat)")


def rise_warning(energy: dict[str, float], advice: str, stored: float = 0.0,
                 depth: float = 0.0, below: float = 0.0, pressed: bool = True) -> str | None:
    """A sentence when the steps created energy (:func:`created_energy`), ending with
    ``advice`` (:func:`remedy`); when the springs' store in the released state (``stored``,
    J, :func:`released_store`) covers the rise, a sentence that names it and gives no
    advice on the steps (:func:`from_release`, ``below``: how far the preload left the
    base below the corner O, m; ``pressed``: a spring's gap is negative), and so when the
    block was released with its base ``depth`` (m, :func:`released_depth`) in the table
    (:func:`from_table_release`); None otherwise."""
    created = created_energy(energy)
    if created is None:
        return None
    cause = released_cause(energy, stored, depth, below, pressed)
    if cause is not None:
        return f"{_rose([created])}: {cause}"
    return (f"{_rose(both_rises(energy))}: the time steps created it, do not trust the "
            f"results after it rose; {advice} ({EXPLAINED.get(advice, EXPLAINED_ELSE)})")


def released_cause(energy: dict[str, float], stored: float = 0.0, depth: float = 0.0,
                   below: float = 0.0, pressed: bool = True) -> str | None:
    """What the released state gave the block (:func:`from_release`,
    :func:`from_table_release`; the arguments :func:`rise_warning`'s) when it covers a
    rise of the total energy beyond :data:`RISE_WARNING` (:func:`created_energy`); None
    when there is no such rise, or the steps created it."""
    created = created_energy(energy)
    if created is None:
        return None
    return from_release(created, stored, below, pressed) or from_table_release(created, depth)


def both_rises(energy: dict[str, float]) -> list[Created]:
    """The rises of the total energy (a :func:`summary`) above its released value and
    above the lowest value it had reached that are beyond :data:`RISE_WARNING` of the
    energy of the motion, the larger first (on a tie the rise above the released value,
    which the other then repeats, alone): energy created after the impacts took more away
    rises more above the lowest value than above the released one (a granite block at
    5 us refined steps: 0.6886 J against 0.3652 J), and the warning quoted the smaller."""
    found = [Created(energy[f"ETOT_{key}_max"], energy[f"ETOT_{key}_time"],
                     energy[f"ETOT_{key}_relative"], above)
             for key, above in (("rise", RELEASED), ("regain", "the lowest value it had reached"))
             if energy.get(f"ETOT_{key}_relative", 0.0) > RISE_WARNING]
    if len(found) == 2 and not found[1].energy > found[0].energy:
        return found[:1]
    return found[::-1]


def _rose(rises: list[Created]) -> str:
    """``the total energy rose up to 0.6886 J above the lowest value it had reached
    (largest at t = 0.1375 s, 2.51% of the energy of the motion) and up to 0.3652 J above
    its released value (largest at t = 0.1375 s, 1.33%)``."""
    said = [f"up to {rise.energy:.4g} J above {rise.above} (largest at t = {rise.time:.6g} s, "
            f"{100 * rise.relative:.3g}%{' of the energy of the motion' if not i else ''})"
            for i, rise in enumerate(rises)]
    return f"the total energy rose {' and '.join(said)}"


#: the energy balance's dissipations (history columns, or their differences) and what
#: takes energy through each; a treatment's ``ECONTACT`` holds its ``EFRICTION`` and, on
#: springs, what they store (``ESPRING``), which they give back
DISSIPATIONS = {"EDAMP": "the Rayleigh damping", "EFRICTION": "the contact's friction",
                "ECONTACT - EFRICTION": "the contact's normal forces",
                "ECONTACT - ESPRING": "the springs' dampers and friction",
                "ECONTACT": "the contact"}


def dissipations(history: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The dissipations of a run's history (J, a value a row, taken since the release),
    each named as :data:`DISSIPATIONS` names it: ``EDAMP``; ``EFRICTION`` and the rest of
    ``ECONTACT`` (a table contact with friction), or ``ECONTACT - ESPRING`` (the springs),
    or ``ECONTACT``."""
    out = {}
    if "EDAMP" in history:
        out["EDAMP"] = np.asarray(history["EDAMP"])
    if "ECONTACT" in history:
        contact = np.asarray(history["ECONTACT"])
        for part in ("EFRICTION", "ESPRING"):
            if part in history:
                if part == "EFRICTION":
                    out[part] = np.asarray(history[part])
                out[f"ECONTACT - {part}"] = contact - np.asarray(history[part])
                break
        else:
            out["ECONTACT"] = contact
    return out


class Given(NamedTuple):
    """Energy a dissipation gave the block (:func:`given_back`).

    Attributes:
        name: the dissipation (a key of :data:`DISSIPATIONS`).
        energy: what it gave (J): its share of the block's energy rise in each step where
            it fell (:func:`given_steps`), summed over the run.
        time: the end of the step where it gave most (s).
        step: that step's length (s).
        largest: what it gave in that step (J).
        relative: ``energy`` over the energy of the motion.

    """

    name: str
    energy: float
    time: float
    step: float
    largest: float
    relative: float


def given_steps(history: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """What each dissipation (:func:`dissipations`) gave the block in each step (J, a
    value a step, >= 0): the step's rise of the block's energy (:func:`own_total` with the
    springs' store), at most what the dissipations that fell in it lost together, shared
    among them in proportion to their falls. A rise is counted once: capped by it column
    by column, it would count once for each column that fell (SDNV105 A on the 0.02 m
    mesh, the 10 us step to 0.05443 s: the total energy rises 0.0472 J as the normal
    forces' column falls 1.377 J and the friction's 0.0614 J, 0.0944 J given back; shared,
    0.0452 and 0.0020 J). A lone fall gives at most the rise, and the shares sum to the
    part of the rise the falls account for: the balance says that the falls paid for the
    rise, not which of them, and attributing it all to the largest fall would leave the
    other unnamed whatever it lost."""
    if "ETOT" not in history or len(history["time"]) < 2:
        return {}
    rose = np.maximum(np.diff(with_store(history, own_total(history)[0])), 0.0)
    falls = {name: np.maximum(-np.diff(taken), 0.0)
             for name, taken in dissipations(history).items()}
    fell = np.sum(list(falls.values()), axis=0) if falls else np.zeros_like(rose)
    share = np.divide(np.minimum(rose, fell), fell, out=np.zeros_like(rose), where=fell > 0.0)
    return {name: fall * share for name, fall in falls.items()}


def gifts_of(steps: dict[str, np.ndarray]) -> np.ndarray:
    """What the dissipations gave the block together in each step (J, a value a step; the
    sum of :func:`given_steps`' columns, ``steps``; empty without them)."""
    return np.sum(list(steps.values()), axis=0) if steps else np.zeros(0)


def given_back(history: dict[str, np.ndarray], motion: float, *,
               steps: dict[str, np.ndarray] | None = None) -> list[Given]:
    """The dissipations that gave the block energy (:func:`given_steps`), each that gave at
    least :data:`NAMED` of what they gave together, the most first, when in one step they
    gave more than :data:`RISE_WARNING` of the energy of the motion (``motion``, J, a
    :func:`summary`'s); none otherwise.

    One step, not the run's sum: the sum adds gifts each of which the impact that follows
    takes back, and grows with the number of impacts. SDNV105 A on the 0.02 m mesh gives
    1.10 % of its 7.29 J in two 10 us steps of its collision windows (0.0472 J at its first
    impact, 0.0327 J at its fourth), which its rise warning (0.65 % above the lowest value
    reached) and its references accept, in steps that the advice's hold and refined step
    do not set; a granite block 0.3 x 1.2 m on ``time.refine.hold = 0`` gives 1.61 % of
    its 27.4 J, 1.60 % of it by friction in one 2.5 ms step with a corner closed, and A
    without ``[time.refine]`` 50.7 % in one 2.5 ms landing step (docs/contact.md, "Energy
    balance"). A step's gift is at most the step's rise, so that a run told of it is also
    told that its total energy rose (:func:`rise_warning`); this names where the energy
    came from. A fall that another term took back in the same step is no energy the block
    gained: at SDNV105 A's first impact, in the 10 us step to 0.05443 s where both corners
    lift, the contact's normal forces fall 1.484 J (20 % of its 7.29 J) while the damping
    takes 1.368 J and the total energy falls by 0.0065 J, the split of two impulsive forces
    paired with one displacement increment: nothing is given back.

    ``steps``: the history's :func:`given_steps` if the caller has them, as :func:`summary`
    takes them."""
    steps = given_steps(history) if steps is None else steps
    gifts = gifts_of(steps)
    if not len(gifts) or not motion > 0.0 or not np.max(gifts) > RISE_WARNING * motion:
        return []
    time = np.asarray(history["time"])
    found = []
    for name, given in steps.items():
        energy = float(np.sum(given))
        if energy >= NAMED * float(np.sum(gifts)):
            k = int(np.argmax(given))
            found.append(Given(name, energy, float(time[k + 1]), float(time[k + 1] - time[k]),
                               float(given[k]), energy / motion))
    return sorted(found, key=lambda g: -g.energy)


def dissipation_warning(history: dict[str, np.ndarray], energy: dict[str, float],
                        advice: str, *,
                        steps: dict[str, np.ndarray] | None = None) -> str | None:
    """One sentence saying what the dissipations gave the block (:func:`given_back`;
    ``energy`` the run's :func:`summary`, whose ``given_back_*`` it quotes): over the run
    and in the step where they gave most, then each, with what it gave (J), when most and
    in how long a step, ending with ``advice`` (:func:`remedy`); None when no step gave
    more than :data:`RISE_WARNING` of the energy of the motion. A dissipation only takes
    energy: one that gives it is the time steps' doing (a Lagrange contact that stays
    closed through a long step, whose friction works backwards). ``steps``: as
    :func:`given_back` takes them."""
    motion = energy.get("motion", 0.0)
    given = given_back(history, motion, steps=steps)
    if not given:
        return None
    said = "; ".join(
        f"{DISSIPATIONS[g.name]} (column{'s' if ' ' in g.name else ''} {g.name}) "
        f"{g.energy:.4g} J, {g.largest:.4g} J of it in the {g.step:.3g} s step to "
        f"t = {g.time:.6g} s"
        for g in given)
    most, total = energy["given_back_max"], energy["given_back_total"]
    return (f"energy taken by the dissipations came back to the block: {total:.4g} J over the "
            f"run ({100 * total / motion:.3g}% of the energy of the motion), {most:.4g} J "
            f"({100 * most / motion:.3g}%) in the step to t = "
            f"{energy['given_back_time']:.6g} s: {said} (in each step where the total energy "
            f"rose, the rise shared among the columns that fell, in proportion to their "
            f"falls); a dissipation only takes energy: the time steps created it; {advice} "
            f"({EXPLAINED.get(advice, EXPLAINED_ELSE)})")


def run_warnings(history: dict[str, np.ndarray], energy: dict[str, float], advice: str,
                 stored: float = 0.0, depth: float = 0.0, below: float = 0.0,
                 pressed: bool = True, *,
                 steps: dict[str, np.ndarray] | None = None) -> list[str]:
    """The energy warnings of a block run, in the order it says them: what the springs'
    friction law (:func:`restick_warning`) and their anchors (:func:`anchor_warning`)
    supplied, the total energy's rise (:func:`rise_warning`, the arguments its) and the
    dissipations that gave energy back (:func:`dissipation_warning`; ``history`` and
    ``energy`` the run's, :func:`summary`, and ``steps`` the :func:`given_steps` it was
    computed with, if given). A rise the released state covers
    (:func:`released_cause`) has no dissipation's: a base released in the table is pushed
    out by its contact in the first step, which gives the block what smaller steps make
    larger, and the rise's warning says so."""
    released = released_cause(energy, stored, depth, below, pressed)
    said = (restick_warning(energy), anchor_warning(energy),
            rise_warning(energy, advice, stored, depth, below, pressed),
            None if released else dissipation_warning(history, energy, advice, steps=steps))
    return [warning for warning in said if warning]

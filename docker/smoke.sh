#!/usr/bin/env bash
# Builds the image and runs what README's Docker section promises, as a user would: each
# command in a fresh container with the network off, writing into a scratch directory
# mounted on /work. Exits non-zero at the first command that does not do what it should.
#   bash docker/smoke.sh              # build, then check (about 2 min once the layers are cached)
#   SKIP_BUILD=1 bash docker/smoke.sh # check the image already built
#   RUN_AS=1234:1234 bash docker/smoke.sh  # as root: run the image as a user it does not know
# Needs a Docker daemon; CI has none, so no test runs this.
set -euo pipefail

IMAGE=${IMAGE:-rocking-contact}
RUN_AS=${RUN_AS:-$(id -u):$(id -g)}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rocking-contact-smoke.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[[ $RUN_AS == "$(id -u):$(id -g)" ]] || chown "$RUN_AS" "$WORK"

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    docker build -f "$ROOT/docker/Dockerfile" -t "$IMAGE" "$ROOT"
fi

# check EXPECTED_EXIT DESCRIPTION -- DOCKER_RUN_ARGS...: one line with its exit code and time.
check() {
    local expected=$1 what=$2 start code
    shift 3
    start=$(date +%s)
    code=0
    docker run --rm --network none "$@" >"$WORK/last.log" 2>&1 || code=$?
    printf '%-58s exit %-3s %4ss\n' "$what" "$code" "$(($(date +%s) - start))"
    if [[ $code != "$expected" ]]; then
        tail -n 20 "$WORK/last.log" >&2
        echo "smoke: '$what' exited $code, expected $expected" >&2
        exit 1
    fi
}

# expect FILE: the run wrote it, and it belongs to RUN_AS (--user), not to the image's uid.
expect() {
    if [[ ! -s $WORK/$1 || $(stat -c %u "$WORK/$1") != "${RUN_AS%%:*}" ]]; then
        echo "smoke: $1 is missing, empty or not owned by uid ${RUN_AS%%:*}" >&2
        exit 1
    fi
}

me=(--user "$RUN_AS" -v "$WORK:/work")
check 0 "list" -- "$IMAGE" list
grep -q '^sdnv105d ' "$WORK/last.log" || { echo "smoke: list shows no sdnv105d" >&2; exit 1; }
check 0 "import dolfinx (before mpi4py)" -- --entrypoint python "$IMAGE" -c "import dolfinx"
check 0 "validate sdnd101a sdnv105_rigid" -- "${me[@]}" "$IMAGE" validate -q sdnd101a sdnv105_rigid
check 0 "run sdnv105d to 0.08 s (gmsh, DOLFINx JIT)" -- "${me[@]}" "$IMAGE" \
    run sdnv105d --set time.end=0.08 -q
expect results/sdnv105d/results.json
expect results/sdnv105d/kinetic_energy.png
check 0 "mpiexec -n 2 run sdnv105d to 0.01 s" -- "${me[@]}" --entrypoint mpiexec "$IMAGE" \
    -n 2 rocking-contact run sdnv105d --set time.end=0.01 --out results/sdnv105d_mpi -q
expect results/sdnv105d_mpi/results.json
check 0 "report (pyvista offscreen)" -- "${me[@]}" "$IMAGE" report sdnv105d
expect report/index.html
expect report/figures/sdnv105d/view_event.png
check 0 "view --movie (imageio-ffmpeg)" -- "${me[@]}" "$IMAGE" \
    view results/sdnv105d --movie rocking.mp4 --frames 12 --fps 12
expect rocking.mp4
# The image's own uid (1000) on a mount Docker made (root's): one line, exit 2.
check 2 "run as uid 1000 into a root-owned mount: refused" -- \
    -v "$WORK/made_by_docker:/work/results" "$IMAGE" run sdnd101a
grep -q '^error: --out: ' "$WORK/last.log" || { echo "smoke: no one-line error" >&2; exit 1; }
echo "smoke: all checks pass ($IMAGE)"

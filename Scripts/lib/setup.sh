# Installs what a fresh machine lacks to build and test shop. Sourced by Scripts/* and .ci/run.
# Idempotent: does nothing when the headers and helpers are already there.

shop_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The C libraries the package links: SQLite (GRDB) and libedit (the REPL).
shop_install_system_packages() {
    local missing=()
    [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
    [ -f /usr/include/histedit.h ] || missing+=(libedit-dev)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    shop_as_root apt-get update
    DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y libedit-dev libsqlite3-dev
}

# Python modules the test suite drives the product with (pass module=package pairs).
shop_install_python_modules() {
    local pair module package
    for pair in "$@"; do
        module=${pair%%=*}
        package=${pair#*=}
        python3 -c "import $module" 2>/dev/null && continue
        echo "setup: pip install $package" >&2
        python3 -m pip install --quiet "$package"
    done
}

# SQLite's shell, which the benchmark runs beside `shop` (both as whole processes).
shop_install_sqlite_shell() {
    command -v sqlite3 >/dev/null && return 0
    echo "setup: installing sqlite3" >&2
    shop_as_root apt-get update
    DEBIAN_FRONTEND=noninteractive shop_as_root apt-get install -y sqlite3
}

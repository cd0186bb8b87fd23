// libedit (Debian's libedit-dev) for Swift. el_set() and history() are C variadic functions,
// which Swift cannot call, so each operation the REPL uses is wrapped in a typed inline function.
#ifndef SHOP_CEDITLINE_SHIM_H
#define SHOP_CEDITLINE_SHIM_H

#include <stdio.h>
#include <histedit.h>

/// The prompt is asked of `prompt` each time the line is drawn.
static inline void shop_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
    el_set(el, EL_PROMPT, prompt);
}

/// "emacs" or "vi" key bindings.
static inline void shop_el_set_editor(EditLine *el, const char *mode) {
    el_set(el, EL_EDITOR, mode);
}

/// Up and down arrows walk `history`.
static inline void shop_el_set_history(EditLine *el, History *history_) {
    el_set(el, EL_HIST, history, history_);
}

/// Registers `function` as an editor command named `name`.
static inline void shop_el_add_function(EditLine *el, const char *name, const char *help,
                                        unsigned char (*function)(EditLine *, int)) {
    el_set(el, EL_ADDFN, name, help, function);
}

/// Binds `key` (e.g. "^I") to the editor command `command`.
static inline void shop_el_bind(EditLine *el, const char *key, const char *command) {
    el_set(el, EL_BIND, key, command, NULL);
}

/// Keeps `data` with the editor, for callbacks to find their owner.
static inline void shop_el_set_client_data(EditLine *el, void *data) {
    el_set(el, EL_CLIENTDATA, data);
}

static inline void *shop_el_client_data(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

/// While a line is edited, Ctrl-C, Ctrl-Z and Ctrl-\ reach the editor as keys instead of
/// raising signals (the terminal's ISIG is off in edit mode only), so ^C can be bound.
static inline void shop_el_keys_instead_of_signals(EditLine *el) {
    el_set(el, EL_SETTY, "-d", "-isig", NULL);
}

/// A history of at most `size` lines that skips a line equal to the one before it.
static inline History *shop_history_open(int size) {
    History *h = history_init();
    if (h == NULL) return NULL;
    HistEvent event;
    history(h, &event, H_SETSIZE, size);
    history(h, &event, H_SETUNIQUE, 1);
    return h;
}

static inline void shop_history_enter(History *h, const char *line) {
    HistEvent event;
    history(h, &event, H_ENTER, line);
}

/// Reads `path` into the history; -1 when it cannot be read (e.g. it does not exist yet).
static inline int shop_history_load(History *h, const char *path) {
    HistEvent event;
    return history(h, &event, H_LOAD, path);
}

/// Writes the history to `path`; -1 on failure.
static inline int shop_history_save(History *h, const char *path) {
    HistEvent event;
    return history(h, &event, H_SAVE, path);
}

#endif

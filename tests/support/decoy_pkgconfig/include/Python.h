/* The decoy python3.pc's headers (tests/support/go_examples.py): a build that reaches them took Python's
 * headers from pkg-config, which names another Python's for a relocated interpreter. */
#error "another Python's Python.h, from the python3.pc on PKG_CONFIG_PATH: Python's headers must come from CGO_CFLAGS"

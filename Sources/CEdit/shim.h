/* libedit's readline-compatible interface: line editing and history for the REPL. */
#include <stdio.h>
#include <editline/readline.h>

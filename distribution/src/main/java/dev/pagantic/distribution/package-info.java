/**
 * The {@code pagantic} command: one launcher over the command line, the terminal chat, the HTTP server and the MCP
 * server.
 *
 * <p>Adapters do not depend on each other, so none of them can offer the others' programs; this module depends on all
 * four and is the one place that puts them together. {@link dev.pagantic.distribution.Pagantic} runs the command
 * line's picocli tree with three more subcommands: {@code tui} and {@code serve} hand their arguments over whole to
 * the terminal chat's and the server's own parsers (so their {@code --help} is theirs), and {@code mcp} is the MCP
 * adapter's picocli command itself.
 *
 * <p>The build lays the command out in {@code distribution/target/pagantic}: {@code bin/pagantic}, a POSIX shell
 * script, and {@code lib/}, this module's jar and every runtime dependency (and the same as
 * {@code target/pagantic.tar.gz}). The script runs {@code java} from {@code $JAVA_HOME} or the {@code PATH} with the
 * options in {@code $JAVA_OPTS}, so no Maven is in the loop.
 */
package dev.pagantic.distribution;

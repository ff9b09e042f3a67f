/**
 * Runnable example programs, one per pattern and per usage example of the specification. Each is a {@code main} that
 * delegates to a method
 * taking the {@link java.io.PrintStream} to write to, so that the test suite runs every example and checks what it
 * printed. Examples are programs, not library code: they may print to the console and may ship an SLF4J binding.
 *
 * <p>{@link dev.pagantic.examples.MainDemo} is the main demo: a chat turn with a tool call, a grammar-constrained
 * extraction and a three-way vote, each with its event timeline, on the real {@code stories260K.gguf} model when it is
 * there and otherwise on the scripted engine, which it says. {@link dev.pagantic.examples.Demo} shows the
 * {@link dev.pagantic.inference.Engine} SPI alone on the testkit's scripted engine (canned replies: it needs no model
 * and no network): a plain call, a streamed call, a tool call, combined token usage, and the error codes of a
 * cancelled call and of a call past its deadline. The programs under {@code patterns} run on the scripted engine and
 * say so.
 */
package dev.pagantic.examples;

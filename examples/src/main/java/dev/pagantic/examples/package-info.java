/**
 * Runnable example programs, one per pattern as the layers arrive. Each is a {@code main} that delegates to a method
 * taking the {@link java.io.PrintStream} to write to, so that the test suite runs every example and checks what it
 * printed. Examples are programs, not library code: they may print to the console and may ship an SLF4J binding.
 *
 * <p>{@link dev.pagantic.examples.Demo}, the main demo, shows the {@link dev.pagantic.inference.Engine} SPI on the
 * testkit's scripted engine: a plain call, a streamed call, a tool call, combined token usage, and the error codes of
 * a cancelled call and of a call past its deadline. It needs no model and no network.
 */
package dev.pagantic.examples;

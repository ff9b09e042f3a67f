/**
 * The execution lifecycle of seed 001: the states a request passes through (INIT, PLAN, PREPARE, EXECUTE, VALIDATE,
 * and the terminal COMPLETE, ERROR, CANCELLED), each pattern's path through them, and the state machine that the
 * patterns drive.
 *
 * <p>Retry is not a separate mechanism but the VALIDATE → EXECUTE transition, which increments the attempt number;
 * {@code validate.RetryPolicy} decides whether to take it. Every transition is reported, with its reason, to a
 * {@link dev.pagantic.orchestrate.lifecycle.TransitionListener}, which the facade connects to the event log as
 * LifecycleTransition events. The machine's public moves are exactly the legal edges, checked against the pattern's
 * {@link dev.pagantic.orchestrate.lifecycle.PatternPath}; a move off the path is a bug in the pattern and throws
 * {@link java.lang.IllegalStateException} at once.
 *
 * <p>This package depends only on core: the patterns and the facade use it, never the reverse.
 */
@NullMarked
package dev.pagantic.orchestrate.lifecycle;

import org.jspecify.annotations.NullMarked;

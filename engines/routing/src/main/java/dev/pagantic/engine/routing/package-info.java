/**
 * A fleet of engines acting as one: {@link dev.pagantic.engine.routing.RoutingEngine} implements
 * {@link dev.pagantic.inference.Engine} over N replica engines that serve the same model (llama.cpp on several
 * machines behind OpenAI-compatible servers, several in-process engines, any mix), so that everything above the
 * inference SPI gains throughput and survives the loss of a replica without knowing there is more than one.
 *
 * <h2>Concepts</h2>
 * <ul>
 *   <li><b>Replica</b>: one engine of the fleet, known by its index in the builder's list. The routing engine does
 *       not own its replicas unless built with {@code ownReplicas(true)}; then {@code close()} closes them.</li>
 *   <li><b>Lease</b>: a call's claim on the replica it was sent to; while it lasts the call counts as in flight on
 *       that replica. Routing state is updated under a monitor held for a few field updates only, never while a
 *       replica runs, so a slow replica never delays the routing of other calls.</li>
 *   <li><b>Pass-through</b>: the call's {@link dev.pagantic.core.CallContext} (request id, deadline, cancellation)
 *       and the request go to the replica unchanged, and its result or failure comes back unchanged (a failure
 *       after a failover carries the first failure as a suppressed exception).</li>
 * </ul>
 *
 * <h2>Strategies</h2>
 * A call goes to one of the <em>available</em> replicas (healthy, or unhealthy with its cooldown over and no trial
 * call running yet):
 * <ul>
 *   <li>{@code ROUND_ROBIN} (the default): in turn, each call to the available replica after the previous call's,
 *       which spreads calls evenly over replicas of equal speed;</li>
 *   <li>{@code LEAST_BUSY}: to the available replica with the fewest calls in flight, ties by order, which suits
 *       replicas of unequal speed or requests of very unequal length.</li>
 * </ul>
 *
 * <h2>Failover</h2>
 * A call that fails with a <em>replica failure</em>, a {@link dev.pagantic.core.PaganticException} that is
 * {@code retryable()} and of category {@code INFERENCE} ({@code INFERENCE_ENGINE_ERROR},
 * {@code INFERENCE_SATURATED}, {@code INFERENCE_MALFORMED_RESPONSE}, or any inference failure marked retryable), is
 * retried <em>once</em> on another replica, chosen as any call is but never the one that failed, and the caller gets
 * that replica's result or failure. Nothing else is retried:
 * <ul>
 *   <li>non-retryable failures ({@code INFERENCE_CONTEXT_EXCEEDED}, {@code INFERENCE_MODEL_UNAVAILABLE},
 *       {@code CONFIG_*}): the request itself is at fault, and every replica would refuse it alike;</li>
 *   <li>cancellations and deadlines ({@code CANCELLED_*}), and any failure once the call's context is cancelled or
 *       expired: the caller no longer waits for an answer;</li>
 *   <li>a call whose replica already delivered output (content, reasoning or a tool call) to the caller's
 *       {@link dev.pagantic.inference.StreamHandler}. The caller has shown part of an answer to a user or acted on a
 *       tool call; a second replica would generate a different answer from the start, and its deltas appended to
 *       the first replica's would give the caller a text no model wrote, or a tool run twice. Such a failure
 *       propagates, and the caller, which knows what it did with the partial output, decides whether to retry;</li>
 *   <li>exceptions that are not {@code PaganticException}s (a caller's handler that threw) propagate unchanged.</li>
 * </ul>
 * With {@code failover(false)} every failure propagates; health is tracked all the same. A single retry bounds the
 * extra load a failing fleet causes at one call per request: each request reaches at most two replicas.
 *
 * <h2>Health</h2>
 * A replica that fails with a replica failure {@code unhealthyAfter} times in a row (default 1) is marked unhealthy
 * for a {@code cooldown} (default 5 s, measured by an injectable {@link java.time.InstantSource}). Unhealthy replicas
 * are skipped while another is available. When the cooldown is over the replica is half-open: one trial call may go
 * to it when its turn comes; success makes it healthy again, failure starts a new cooldown. When no replica is
 * available, the call goes to the one whose cooldown ends first rather than failing outright: a fleet that is
 * entirely down still answers as soon as any replica comes back. A result or failure of a call that started before
 * the replica was last marked unhealthy does not change its health, as it reports on an outage already accounted for.
 * Other failures (refusals, cancellations) say nothing about a replica and leave its health alone.
 * {@link dev.pagantic.engine.routing.RoutingEngine#health()} returns a snapshot per replica (index, model name,
 * healthy, in flight, consecutive failures, requests served, end of cooldown) for monitoring; failovers and health
 * changes are logged through SLF4J.
 *
 * <h2>Model info</h2>
 * The fleet's {@link dev.pagantic.inference.ModelInfo} is read from the replicas once, when the engine is built: the
 * name {@code routing(<the replicas' distinct model names>)}, the smallest context window a replica declares
 * (replicas that declare 0, unknown, are left out), and the capabilities every replica declares, so that a request
 * needing a grammar, a schema or tools is refused with {@code CONFIG_UNSUPPORTED_CAPABILITY} unless every replica,
 * any of which it may be routed to, can serve it. The token counter is the first replica's. A closed routing engine
 * refuses calls with {@code INFERENCE_ENGINE_CLOSED}. The engine passes the Engine contract kit of
 * {@code pagantic-testkit}.
 *
 * <h2>Dependencies</h2>
 * Core, inference and SLF4J only: the replicas are any {@code Engine}s, so this module depends on no other engine.
 */
@NullMarked
package dev.pagantic.engine.routing;

import org.jspecify.annotations.NullMarked;

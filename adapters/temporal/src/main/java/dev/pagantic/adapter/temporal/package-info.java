/**
 * Durable execution on Temporal: {@link dev.pagantic.adapter.temporal.DurableOrchestrator} runs each
 * {@link dev.pagantic.orchestrate.facade.SystemRequest} as a {@link dev.pagantic.adapter.temporal.RequestWorkflow}
 * (workflow id = request id) in which every plan step (plan mode) or every engine and tool call (the other modes) is
 * its own activity, retried according to the failure taxonomy (retryable error codes with backoff, the others never),
 * so that a long multi-call execution survives worker restarts without running a completed call again, and is
 * visible in Temporal's UI. Without a client, or when the cluster cannot be reached, requests run in process with
 * the same results.
 *
 * <p>How: the workflow is deterministic and holds only data, the request JSON ({@link
 * dev.pagantic.orchestrate.facade.FacadeJson}) and the journal of recorded outcomes, keyed by invocation (kind, name,
 * input digest, occurrence). Each activity runs the request on the worker's orchestrator with an interceptor that
 * answers the recorded invocations from the journal, runs the first unrecorded one, records its outcome and abandons
 * the rest; when concurrent redundant replicas or multi-model voters reach several unrecorded invocations at once, it
 * reports their keys and the workflow runs them as parallel activities. Activities heartbeat from a ticker while they
 * run. The last activity's response is the workflow's result, which the client decodes without running anything. See
 * docs/adapters-temporal.md.
 *
 * <p>Dependency rule: like the other adapters it uses orchestrate's facade
 * ({@code dev.pagantic.orchestrate.facade}) and core. It is the one named exception that also uses orchestrate's
 * public interception SPI ({@code dev.pagantic.orchestrate.spi}), the hook through which engine calls, tool calls and
 * plan steps are handed to activities instead of being run in process. It re-implements no orchestration logic.
 */
@NullMarked
package dev.pagantic.adapter.temporal;

import org.jspecify.annotations.NullMarked;

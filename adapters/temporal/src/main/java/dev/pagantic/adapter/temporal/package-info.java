/**
 * Durable execution on Temporal (planned; not yet implemented): plans and orchestration modes run as workflows, with
 * each engine call, tool call or plan step run as an activity with its own retry policy and timeout, so that a long
 * multi-call execution survives process restarts and is visible in Temporal's UI.
 *
 * <p>Dependency rule: like the other adapters it uses orchestrate's facade
 * ({@code dev.pagantic.orchestrate.facade}) and core. It is the one named exception that also uses orchestrate's
 * public interception SPI ({@code dev.pagantic.orchestrate.spi}), the hook through which engine calls, tool calls and
 * plan steps are handed to activities instead of being run in process. It re-implements no orchestration logic.
 */
package dev.pagantic.adapter.temporal;

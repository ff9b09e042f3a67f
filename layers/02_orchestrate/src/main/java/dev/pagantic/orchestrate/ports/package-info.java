/**
 * The ports through which other layers' components plug into orchestrate, by method reference or lambda, without
 * either layer importing the other: {@link dev.pagantic.orchestrate.ports.ContextProvider} (the context layer's
 * {@code ContextBuilder::build}), {@link dev.pagantic.orchestrate.ports.ContextPlacement} (the prompt layer's context
 * policy), {@link dev.pagantic.orchestrate.ports.CandidateReranker} with its
 * {@link dev.pagantic.orchestrate.ports.RerankInput} (the rerank layer's {@code Reranker}), and
 * {@link dev.pagantic.orchestrate.ports.PromptProvider} (the prompt layer's system prompt).
 *
 * <p>Ports speak core, inference and the band only, never a pattern's types, so adapters that wire components up may
 * see them (an architecture rule checks both).
 */
@NullMarked
package dev.pagantic.orchestrate.ports;

import org.jspecify.annotations.NullMarked;

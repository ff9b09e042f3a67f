/**
 * One runnable program for each usage snippet of seed 000 (the orchestrate guide), on the testkit's scripted engine so
 * that each runs anywhere and the test suite checks what it prints: {@link AgentLoopExample} (tools and context),
 * {@link ChatStructuredExample}, {@link SpecializedLoopExample} (basic) and {@link SpecializedLoopWithToolsExample},
 * {@link RagPlanExample}, {@link PlanWithValidationExample}, {@link CustomHandlerExample},
 * {@link RedundantLoopExample} and {@link ComposingPatternsExample}. Replace the scripted engine with a real one
 * (llama.cpp or OpenAI-compatible) and each program runs unchanged.
 */
package dev.pagantic.examples.patterns;

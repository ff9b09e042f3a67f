/**
 * Benchmarks of pagantic: JMH benchmarks of orchestration overhead on a zero-latency engine
 * ({@link dev.pagantic.bench.OrchestrationBench}), the same tool loop in LangChain4j
 * ({@link dev.pagantic.bench.LangChain4jBench}), constraint-pipeline and grammar throughput
 * ({@link dev.pagantic.bench.ConstraintBench}), and a wall-clock harness for local llama.cpp inference
 * ({@link dev.pagantic.bench.LlamaBench}). The normal build compiles them and runs none; docs/performance.md says
 * how to run them and what they measured.
 */
package dev.pagantic.bench;

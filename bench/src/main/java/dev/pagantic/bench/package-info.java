/**
 * Benchmarks of pagantic: JMH benchmarks of orchestration overhead on a zero-latency engine
 * ({@link dev.pagantic.bench.OrchestrationBench}), the same tool loop in LangChain4j
 * ({@link dev.pagantic.bench.LangChain4jBench}), both chat turns in CPU time for a machine too loaded for wall time
 * ({@link dev.pagantic.bench.ChatTurnCpu}), constraint-pipeline and grammar throughput
 * ({@link dev.pagantic.bench.ConstraintBench}), a wall-clock harness for local llama.cpp inference
 * ({@link dev.pagantic.bench.LlamaBench}) and for what grammars cost it ({@link dev.pagantic.bench.GrammarSetupBench}),
 * the cost of a chat turn and the memory of a session with many sessions open
 * ({@link dev.pagantic.bench.SessionTurnBench}, {@link dev.pagantic.bench.SessionScaling}), and the API adapter's
 * server for a loopback load generator ({@link dev.pagantic.bench.ApiLoadServer}, {@code bench/load}). The normal
 * build compiles them and runs none; docs/performance.md says how to run them and what they measured.
 * {@link dev.pagantic.bench.ConversationStoreBench} measures what persisting a turn and restoring a session cost in
 * each conversation store (in memory, file journal, JDBC on SQLite and on a PostgreSQL server it starts).
 */
package dev.pagantic.bench;

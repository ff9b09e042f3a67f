package dev.pagantic.bench;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of the constraint pipeline (repair, enum normalisation, validation) on outputs of 200 B, 2 KB and
 * 100 KB, of deriving a GBNF grammar from a schema, and of checking an output against that grammar.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ConstraintBench {

    @Param({"200", "2048", "102400"})
    public int size;

    private ConstraintPipeline pipeline;
    private GbnfGrammar grammar;
    private String messy;
    private String clean;

    @Setup
    public void setUp() {
        pipeline = ConstraintPipeline.builder().schema(Payloads.SCHEMA).repairAllowed(true).build();
        grammar = GbnfGrammar.fromSchema(Payloads.SCHEMA);
        messy = Payloads.messyJson(size);
        clean = Payloads.cleanJson(size);
        if (!pipeline.process(messy).valid()) {
            throw new IllegalStateException("the pipeline rejects the benchmark's output: " + pipeline.process(messy));
        }
        if (!grammar.accepts(clean)) {
            throw new IllegalStateException("the grammar rejects the benchmark's clean output");
        }
    }

    /** Repair, normalise and validate one output that needs all three. */
    @Benchmark
    public ValidationReport pipelineProcess() {
        return pipeline.process(messy);
    }

    /** Check one valid output against the schema's grammar. */
    @Benchmark
    public boolean grammarAccepts() {
        return grammar.accepts(clean);
    }

    /** Derive the GBNF grammar of the schema (independent of the output size). */
    @Benchmark
    public GbnfGrammar grammarFromSchema() {
        return GbnfGrammar.fromSchema(Payloads.SCHEMA);
    }
}

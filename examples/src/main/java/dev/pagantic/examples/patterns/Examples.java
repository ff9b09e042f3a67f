package dev.pagantic.examples.patterns;

import dev.pagantic.context.Bm25Retriever;
import dev.pagantic.context.ContextBuilder;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.tool.Tool;
import java.util.List;

/** What the pattern examples share: the schemas, the tools and the small document corpus of seed 000's snippets. */
final class Examples {

    static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .build();
    static final Schema SENTIMENT_WITH_CONFIDENCE = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();
    static final Schema SUMMARY = Schema.object()
            .required("summary", Schema.string())
            .required("sources", Schema.arrayOf(Schema.string()))
            .build();
    static final GbnfGrammar SENTIMENT_GRAMMAR = GbnfGrammar.parse("""
            root ::= "{" ws "\\"sentiment\\"" ws ":" ws val ws "}"
            ws  ::= [ \\t\\n]*
            val ::= "\\"positive\\"" | "\\"negative\\"" | "\\"neutral\\""
            """);

    private Examples() {
    }

    /** A search tool that answers from a fixed table, as the seed's {@code searchTool}. */
    static Tool searchTool() {
        return Tool.builder(ToolDefinition.of("search", "Searches the web",
                        Schema.object().required("query", Schema.string()).build()))
                .handler((ctx, args) -> "Weather for " + args.get("query") + ": 18 degrees and sunny")
                .build();
    }

    /** A calculator tool that adds two numbers, as the seed's {@code calcTool}. */
    static Tool calcTool() {
        return Tool.builder(ToolDefinition.of("calc", "Adds two numbers",
                        Schema.object().required("a", Schema.number()).required("b", Schema.number()).build()))
                .handler((ctx, args) -> String.valueOf(((Number) args.get("a")).doubleValue()
                        + ((Number) args.get("b")).doubleValue()))
                .build();
    }

    /** A BM25 context builder over three short documents about Go interfaces. */
    static ContextBuilder goDocs() {
        return ContextBuilder.builder().retriever(Bm25Retriever.of(List.of(
                Candidate.of("Interfaces in Go are satisfied implicitly: a type implements an interface by having its "
                        + "methods.", "go-spec"),
                Candidate.of("Go interfaces are small; io.Reader has a single Read method.", "effective-go"),
                Candidate.of("Goroutines are lightweight threads managed by the Go runtime.", "go-tour"))))
                .maxChunks(2)
                .build();
    }
}

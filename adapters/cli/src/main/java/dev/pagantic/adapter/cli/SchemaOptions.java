package dev.pagantic.adapter.cli;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.orchestrate.facade.OutputContract;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The output contract options of {@code extract} and {@code vote}: a JSON Schema (from a file or inline, exactly one),
 * an optional GBNF grammar file, and whether repair and leniency are allowed.
 */
public final class SchemaOptions {

    @ArgGroup(exclusive = true, multiplicity = "1", order = 20)
    private Source source;

    @Option(names = "--grammar", paramLabel = "FILE.gbnf", order = 23,
            description = "A GBNF grammar constraining the decoder (the engine must support grammars).")
    private @Nullable Path grammar;

    @Option(names = "--no-repair", order = 24,
            description = "Fail on malformed JSON instead of repairing it.")
    private boolean noRepair;

    @Option(names = "--lenient", order = 25,
            description = "Print output that still violates the schema (with warnings on stderr) instead of failing.")
    private boolean lenient;

    /** No options given; picocli fills the fields. */
    public SchemaOptions() {
    }

    /** Where the schema comes from: exactly one of the two options. */
    static final class Source {
        @Option(names = "--schema", paramLabel = "FILE.json", required = true, order = 21,
                description = "A JSON Schema file the output must conform to.")
        private @Nullable Path file;

        @Option(names = "--schema-inline", paramLabel = "JSON", required = true, order = 22,
                description = "The JSON Schema itself, for example '{\"type\":\"object\",...}'.")
        private @Nullable String inline;
    }

    /**
     * The output contract: the schema read and converted ({@link Schema#fromJsonSchema}), the grammar file (read by
     * the facade when the request is prepared), repair unless {@code --no-repair}, strict unless {@code --lenient}.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a schema file that cannot be read, text that is not a JSON
     *                           object, or a schema keyword that cannot be honoured
     */
    OutputContract contract() {
        Map<String, Object> document = source.file != null
                ? Json.readObject(Json.readFile(source.file, "schema"), "the schema file " + source.file)
                : Json.readObject(source.inline, "the inline schema");
        OutputContract.Builder contract = OutputContract.builder()
                .schema(Schema.fromJsonSchema(document))
                .repairAllowed(!noRepair)
                .strictValidation(!lenient);
        if (grammar != null) {
            contract.grammarFile(grammar);
        }
        return contract.build();
    }
}

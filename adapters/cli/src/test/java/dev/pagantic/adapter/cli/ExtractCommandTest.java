package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtractCommandTest {

    static final String NAME_SCHEMA = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
            + "\"maxLength\":8}},\"required\":[\"name\"]}";

    @Test
    void anInlineSchemaGivesTheValidatedJsonOnStdout() {
        Cli.Run run = Cli.run("extract", "--scripted", "{\"name\": \"Ann\"}", "--schema-inline", NAME_SCHEMA,
                "Who wrote it?");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("{" + System.lineSeparator() + "  \"name\" : \"Ann\"" + System.lineSeparator()
                + "}" + System.lineSeparator());
        assertThat(run.err()).isEmpty();
    }

    @Test
    void malformedOutputIsRepairedBeforeItIsPrinted() {
        Cli.Run run = Cli.run("extract", "--scripted", "{'name': 'Ann',}", "--schema-inline", NAME_SCHEMA, "who");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("\"name\" : \"Ann\"");
    }

    @Test
    void withNoRepairMalformedOutputIsAConstraintFailure() {
        Cli.Run run = Cli.run("extract", "--no-repair", "--scripted", "{\"name\": \"Ann\",}", "--scripted",
                "{\"name\": \"Ann\",}", "--scripted", "{\"name\": \"Ann\",}", "--schema-inline", NAME_SCHEMA, "who");

        assertThat(run.code()).isEqualTo(ExitCodes.CONSTRAINT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("error: CONSTRAINT_JSON_INVALID (ConstraintFailure): ");
    }

    @Test
    void outputThatViolatesTheSchemaIsAConstraintFailureUnlessLenient() {
        String tooLong = "{\"name\": \"Bartholomew\"}";

        Cli.Run strict = Cli.run("extract", "--scripted", tooLong, "--scripted", tooLong, "--scripted", tooLong,
                "--schema-inline", NAME_SCHEMA, "who");
        Cli.Run lenient = Cli.run("extract", "--lenient", "--scripted", tooLong, "--schema-inline", NAME_SCHEMA,
                "who");

        assertThat(strict.code()).isEqualTo(ExitCodes.CONSTRAINT);
        assertThat(strict.err()).contains("CONSTRAINT_SCHEMA_INVALID").contains("at most 8 characters");
        assertThat(lenient.code()).isZero();
        assertThat(lenient.out()).contains("Bartholomew");
        assertThat(lenient.err()).contains("warning: the output violates the schema: $.name");
    }

    @Test
    void jsonPrintsTheWholeResponseWithItsStructuredOutput() {
        Cli.Run run = Cli.run("extract", "--json", "--scripted", "{\"name\": \"Ann\"}", "--schema-inline",
                NAME_SCHEMA, "who");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("\"structured_output\":{\"name\":\"Ann\"}")
                .contains("\"validation_result\"").contains("\"request_id\"");
    }

    @Test
    void aSchemaFileWorksLikeAnInlineSchema(@TempDir Path dir) throws IOException {
        Path schema = Files.writeString(dir.resolve("person.json"), NAME_SCHEMA);

        Cli.Run run = Cli.run("extract", "--scripted", "{\"name\": \"Ann\"}", "--schema", schema.toString(), "who");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("\"name\" : \"Ann\"");
    }

    @Test
    void aSchemaThatIsNotJsonIsAConfigurationError() {
        ScriptedEngine engine = ScriptedEngine.replying("{}");

        Cli.Run run = Cli.runWithEngine(engine, "", "extract", "--schema-inline", "{\"type\":", "who");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_INVALID (ConfigurationFailure): the inline schema is not JSON");
        assertThat(engine.requests()).as("checked before the engine is used").isEmpty();
    }

    @Test
    void aSchemaKeywordThatCannotBeHonouredIsAConfigurationError() {
        Cli.Run run = Cli.run("extract", "--scripted", "{}", "--schema-inline",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"nullable\":true}}}", "who");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("CONFIG_INVALID").contains("'nullable' is not supported")
                .contains("/properties/a/nullable");
    }

    @Test
    void aMissingSchemaFileIsAConfigurationError(@TempDir Path dir) {
        Cli.Run run = Cli.run("extract", "--scripted", "{}", "--schema", dir.resolve("none.json").toString(), "who");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("cannot read the schema file").contains("it does not exist");
    }

    @Test
    void aMissingGrammarFileIsAConfigurationError(@TempDir Path dir) {
        Cli.Run run = Cli.run("extract", "--scripted", "{}", "--schema-inline", NAME_SCHEMA, "--grammar",
                dir.resolve("none.gbnf").toString(), "who");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_GRAMMAR_NOT_FOUND (ConfigurationFailure): ");
    }

    @Test
    void noSchemaOrTwoSchemasAreUsageErrors() {
        Cli.Run none = Cli.run("extract", "--scripted", "{}", "who");
        Cli.Run two = Cli.run("extract", "--scripted", "{}", "--schema-inline", NAME_SCHEMA, "--schema", "x.json",
                "who");

        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("--schema").contains("--schema-inline");
        assertThat(two.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(two.err()).contains("mutually exclusive");
    }
}

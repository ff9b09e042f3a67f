package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputContractTest {

    private static final Schema SCHEMA = Schema.object().required("answer", Schema.string()).build();

    @Test
    void repairIsAllowedAndValidationLenientByDefault() {
        OutputContract contract = OutputContract.builder().build();

        assertThat(contract.repairAllowed()).isTrue();
        assertThat(contract.strictValidation()).isFalse();
        assertThat(contract.schema()).isEmpty();
        assertThat(contract.grammar()).isEmpty();
        assertThat(contract.hasSchema()).isFalse();
        assertThat(contract).isEqualTo(OutputContract.none());
    }

    @Test
    void aContractOfASchemaKeepsTheDefaults() {
        OutputContract contract = OutputContract.of(SCHEMA);

        assertThat(contract.schema()).contains(SCHEMA);
        assertThat(contract.hasSchema()).isTrue();
        assertThat(contract.repairAllowed()).isTrue();
        assertThat(contract.strictValidation()).isFalse();
    }

    @Test
    void repairAndStrictnessCanBeChosen() {
        OutputContract contract = OutputContract.builder().schema(SCHEMA).repairAllowed(false)
                .strictValidation(true).build();

        assertThat(contract.repairAllowed()).isFalse();
        assertThat(contract.strictValidation()).isTrue();
        assertThat(contract.toBuilder().build()).isEqualTo(contract);
    }

    @Test
    void anInlineGrammarLoadsAsItsText() {
        OutputContract contract = OutputContract.builder().grammar("root ::= \"yes\" | \"no\"").build();

        assertThat(contract.grammar()).containsInstanceOf(GrammarSource.Inline.class);
        assertThat(contract.grammar().orElseThrow().load()).isEqualTo("root ::= \"yes\" | \"no\"");
    }

    @Test
    void aGrammarFileIsReadWhenLoaded(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("answer.gbnf");
        OutputContract contract = OutputContract.builder().grammarFile(file).build();
        Files.writeString(file, "root ::= \"ok\"", StandardCharsets.UTF_8);

        assertThat(contract.grammar()).contains(GrammarSource.file(file));
        assertThat(contract.grammar().orElseThrow().load()).isEqualTo("root ::= \"ok\"");
    }

    @Test
    void aMissingGrammarFileIsGrammarNotFound(@TempDir Path dir) {
        GrammarSource missing = GrammarSource.file(dir.resolve("absent.gbnf"));

        assertFailsWith(ErrorCode.CONFIG_GRAMMAR_NOT_FOUND, missing::load);
        try {
            missing.load();
        } catch (PaganticException failure) {
            assertThat(failure.details()).containsEntry("path", dir.resolve("absent.gbnf").toString());
        }
    }

    @Test
    void aBlankInlineGrammarOrNullPartsAreConfigurationErrors() {
        assertConfigInvalid(() -> GrammarSource.inline(" "));
        assertConfigInvalid(() -> GrammarSource.inline(null));
        assertConfigInvalid(() -> GrammarSource.file(null));
        assertConfigInvalid(() -> OutputContract.builder().schema(null));
        assertConfigInvalid(() -> new OutputContract(null, Optional.empty(), true, false));
    }
}

package dev.pagantic.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.examples.RecordExtraction.Animal;
import dev.pagantic.examples.RecordExtraction.Pet;
import dev.pagantic.tck.ModelAssumptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's record-typed extraction, on the scripted engine and on the real stories model. */
class RecordExtractionTest {

    @Test
    void withoutAModelTheScriptedAnswerBecomesThePet(@TempDir Path empty) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        Pet pet = RecordExtraction.run(new PrintStream(buffer, true, StandardCharsets.UTF_8), empty);

        assertThat(pet).isEqualTo(new Pet(Animal.CAT, 3, true, LocalDate.of(2023, 4, 1)));
        assertThat(buffer.toString(StandardCharsets.UTF_8)).startsWith("scripted engine (no model): Pet[");
    }

    @Test
    void onTheRealModelTheAnswerIsAlwaysAPet() {
        Path models = ModelAssumptions.require(RecordExtraction.MODEL_FILE).getParent();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Pet pet = RecordExtraction.run(new PrintStream(buffer, true, StandardCharsets.UTF_8), models);

        assertThat(pet.animal()).isNotNull();
        assertThat(pet.born()).isNotNull();
        assertThat(buffer.toString(StandardCharsets.UTF_8)).startsWith("llama.cpp, stories260K.gguf: Pet[animal=");
    }
}

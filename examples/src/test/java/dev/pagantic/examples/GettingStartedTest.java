package dev.pagantic.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.examples.GettingStarted.Person;
import dev.pagantic.tck.ModelAssumptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/getting-started.md: its program is this module's {@link GettingStarted}, and it runs on the real model. */
class GettingStartedTest {

    @Test
    void theExtractionReturnsARecordFromTheRealModel() {
        Path model = ModelAssumptions.require(MainDemo.MODEL_FILE);

        Person person = GettingStarted.extract(model, "Alice is 30 years old.");

        assertThat(person).isNotNull();
        assertThat(person.name()).as("stories260K tells stories: the name is whatever it wrote, but a string").isNotNull();
    }

    @Test
    void theGuideShowsTheProgramAsItIsAndItStaysShort() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        String source = Files.readString(Path.of("src/main/java/dev/pagantic/examples/GettingStarted.java"),
                StandardCharsets.UTF_8);
        String guide = Files.readString(root.resolve("docs/getting-started.md"), StandardCharsets.UTF_8);
        String program = source.substring(source.indexOf("import "));

        assertThat(guide).contains(program.strip());
        assertThat(program.lines().count()).as("lines of the program").isLessThan(30);
    }
}

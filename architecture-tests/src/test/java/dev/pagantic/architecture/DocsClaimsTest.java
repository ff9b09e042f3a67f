package dev.pagantic.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the guide from promising what is already there: no line of the README or of {@code docs/} may call a module
 * of this repository "planned", "in progress" or "to come". A module is named by its folder ({@code temporal},
 * {@code llamacpp}, {@code distribution}), its artifact ({@code pagantic-mcp}) or, for the engines, its engine's name.
 */
class DocsClaimsTest {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern FUTURE = Pattern.compile(
            "\\b(planned|in progress|still to come|not yet (built|written|implemented)|coming soon)\\b",
            Pattern.CASE_INSENSITIVE);

    @Test
    void noDocumentCallsAnExistingModulePlannedOrInProgress() throws IOException {
        Path root = repositoryRoot();
        List<String> modules = modules(root);
        List<String> claims = new ArrayList<>();
        for (Path document : documents(root)) {
            List<String> lines = Files.readAllLines(document, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (FUTURE.matcher(line).find()) {
                    String lower = line.toLowerCase(Locale.ROOT);
                    for (String module : modules) {
                        if (Pattern.compile("\\b" + Pattern.quote(module) + "\\b").matcher(lower).find()) {
                            claims.add(root.relativize(document) + ":" + (i + 1) + " (" + module + "): "
                                    + line.strip());
                            break;
                        }
                    }
                }
            }
        }
        assertThat(claims).as("lines that call an existing module planned or in progress").isEmpty();
    }

    @Test
    void theClaimCheckRecognisesAStaleLine() {
        assertThat(FUTURE.matcher("- **in progress**: durable execution on Temporal").find()).isTrue();
        assertThat(FUTURE.matcher("(llama.cpp, OpenAI-compatible; planned)").find()).isTrue();
        assertThat(FUTURE.matcher("policy violations are never replanned").find()).isFalse();
    }

    /** The names a document may use for each module: folder, artifact, and the engines' own names. */
    private static List<String> modules(Path root) throws IOException {
        String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);
        List<String> names = new ArrayList<>(List.of("llama.cpp", "openai-compatible"));
        Matcher module = MODULE.matcher(pom);
        while (module.find()) {
            String folder = Path.of(module.group(1)).getFileName().toString().replaceFirst("^\\d+_", "");
            names.add(folder.toLowerCase(Locale.ROOT));
            Path modulePom = root.resolve(module.group(1)).resolve("pom.xml");
            Matcher artifact = Pattern.compile("<artifactId>(pagantic-[^<]+)</artifactId>")
                    .matcher(Files.readString(modulePom, StandardCharsets.UTF_8));
            // the second artifactId is the module's own (the first is its parent's)
            if (artifact.find() && artifact.find()) {
                names.add(artifact.group(1));
            }
        }
        return names;
    }

    private static List<Path> documents(Path root) {
        List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new AssertionError("no directory at or above " + start + " holds README.md and docs/");
    }
}

package dev.pagantic.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/spec-coverage.md} honest: every test it names as {@code `Class#method`} must exist, as a method
 * declaration {@code void method(} in a file {@code Class.java} under some {@code src/test/java} directory of the
 * repository. A renamed or deleted test therefore fails the build instead of leaving a claim of the specification
 * silently unchecked.
 */
class SpecCoverageTest {

    private static final String DOCUMENT = "docs/spec-coverage.md";
    private static final int MINIMUM_REFERENCES = 80;
    private static final Pattern REFERENCE = Pattern.compile("`([A-Z][A-Za-z0-9_]*)#([A-Za-z_][A-Za-z0-9_]*)`");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", "node_modules", ".idea");

    @Test
    void everyTestNamedInTheSpecCoverageTableExists() throws IOException {
        Path root = repositoryRoot();
        List<String> references = references(Files.readString(root.resolve(DOCUMENT), StandardCharsets.UTF_8));
        Map<String, List<Path>> testSources = testSourcesByClassName(root);

        List<String> missing = new ArrayList<>();
        for (String reference : new LinkedHashSet<>(references)) {
            String className = reference.substring(0, reference.indexOf('#'));
            String method = reference.substring(reference.indexOf('#') + 1);
            Pattern declaration = Pattern.compile("\\bvoid\\s+" + Pattern.quote(method) + "\\s*\\(");
            boolean found = testSources.getOrDefault(className, List.of()).stream()
                    .anyMatch(source -> declaration.matcher(read(source)).find());
            if (!found) {
                missing.add(reference);
            }
        }

        assertThat(references)
                .as("%s must name at least %d tests (is the table empty?)", DOCUMENT, MINIMUM_REFERENCES)
                .hasSizeGreaterThanOrEqualTo(MINIMUM_REFERENCES);
        assertThat(missing)
                .as("%s names %d test method(s) that no src/test/java of %s declares:%n  %s", DOCUMENT,
                        missing.size(), root, String.join(System.lineSeparator() + "  ", missing))
                .isEmpty();
    }

    /** Every {@code `Class#method`} reference of the document, in order, with repetitions. */
    static List<String> references(String document) {
        List<String> references = new ArrayList<>();
        Matcher matcher = REFERENCE.matcher(document);
        while (matcher.find()) {
            references.add(matcher.group(1) + "#" + matcher.group(2));
        }
        return references;
    }

    /** The nearest directory at or above the working directory that holds the coverage document. */
    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(DOCUMENT))) {
                return dir;
            }
        }
        throw new AssertionError("no directory at or above " + start + " contains " + DOCUMENT);
    }

    /** The Java files under every {@code src/test/java} of the repository, by simple class name. */
    private static Map<String, List<Path>> testSourcesByClassName(Path root) throws IOException {
        Map<String, List<Path>> sources = new HashMap<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                Path name = dir.getFileName();
                return name != null && !dir.equals(root) && SKIPPED_DIRECTORIES.contains(name.toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String name = file.getFileName().toString();
                if (name.endsWith(".java") && isUnderTestSources(root.relativize(file))) {
                    sources.computeIfAbsent(name.substring(0, name.length() - ".java".length()),
                            key -> new ArrayList<>()).add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return sources;
    }

    private static boolean isUnderTestSources(Path relative) {
        for (int i = 0; i + 2 < relative.getNameCount(); i++) {
            if (relative.getName(i).toString().equals("src") && relative.getName(i + 1).toString().equals("test")
                    && relative.getName(i + 2).toString().equals("java")) {
                return true;
            }
        }
        return false;
    }

    private static String read(Path source) {
        try {
            return Files.readString(source, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

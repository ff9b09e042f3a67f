package dev.pagantic.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The jars the distribution ships: each of pagantic's has a stable module name, and Jackson comes in one version. */
class DistributionJarsIT {

    private static final Path LIB = Launcher.script().getParent().getParent().resolve("lib");

    @Test
    void everyPaganticJarNamesItsModuleAfterItsRootPackage() throws IOException {
        List<String> names = new ArrayList<>();
        for (Path jar : jars("pagantic-")) {
            try (JarFile file = new JarFile(jar.toFile())) {
                String name = file.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
                assertThat(name).as(jar.getFileName().toString()).isNotBlank().startsWith("dev.pagantic.");
                ModuleDescriptor.newModule(name); // throws for a name that is not a module name
                names.add(name);
            }
        }
        assertThat(names).hasSizeGreaterThan(15).doesNotHaveDuplicates()
                .contains("dev.pagantic.core", "dev.pagantic.engine.llamacpp", "dev.pagantic.adapter.mcp");
    }

    @Test
    void jacksonComesInOneVersion() throws IOException {
        List<String> versions = jars("jackson-").stream()
                .map(jar -> jar.getFileName().toString())
                .filter(name -> !name.startsWith("jackson-annotations")) // Jackson 3 keeps the 2.x annotations
                .map(name -> name.substring(name.lastIndexOf('-') + 1, name.length() - ".jar".length()))
                .distinct().toList();

        assertThat(versions).hasSize(1);
    }

    private static List<Path> jars(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(LIB)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }
}

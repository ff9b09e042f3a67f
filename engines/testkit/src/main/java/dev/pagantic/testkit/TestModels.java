package dev.pagantic.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Finds the small GGUF models that model-backed tests, examples and benchmarks run on: the folder named by the
 * environment variable {@value #DIRECTORY_VARIABLE}, by default {@code ../shared/models} relative to the repository
 * root (the nearest folder above the working directory that holds {@code .ci/run}).
 *
 * <p>Tests that need a model use {@code ModelAssumptions.require} of the contract kit ({@code pagantic-engine-tck}),
 * which skips a test whose model is missing, or fails it in CI; this class has no test-framework dependency, so that
 * the examples and the benchmarks can use it in production code.
 */
public final class TestModels {

    /** The environment variable that names the models' folder. */
    public static final String DIRECTORY_VARIABLE = "PAGANTIC_TEST_MODEL_DIR";
    /** A 260K-parameter llama model trained on children's stories: readable English, no instruction following. */
    public static final String STORIES = "stories260K.gguf";
    /** A llama model with random weights and the full 32,000-token Llama 2 vocabulary. */
    public static final String TINY_RANDOM = "llama-2-tiny-random.gguf";

    private TestModels() {
    }

    /** The models' folder: {@value #DIRECTORY_VARIABLE}, else {@code ../shared/models} beside the repository. */
    public static Path directory() {
        String configured = System.getenv(DIRECTORY_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return repositoryRoot().resolve("../shared/models").normalize();
    }

    /** The path a model file would have; it may not exist. */
    public static Path path(String file) {
        return directory().resolve(file);
    }

    /**
     * A copy of a GGUF model that declares another architecture in its header ({@code general.architecture}),
     * for tests of how a model the native library cannot run is refused. The new name must have as many bytes as the
     * old one ({@code llama} and {@code qwen3} do), so that only the name changes in the file.
     *
     * @param model        the GGUF file to copy
     * @param architecture the architecture to declare
     * @param directory    where to write the copy ({@code <architecture>-<file name>})
     * @return the copy
     * @throws IllegalArgumentException when the file declares no architecture or one of another length
     */
    public static Path withArchitecture(Path model, String architecture, Path directory) throws IOException {
        byte[] bytes = Files.readAllBytes(model);
        byte[] key = "general.architecture".getBytes(StandardCharsets.UTF_8);
        byte[] name = architecture.getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bytes, key);
        if (at < 0) {
            throw new IllegalArgumentException(model + " declares no general.architecture");
        }
        ByteBuffer value = ByteBuffer.wrap(bytes, at + key.length, 12).order(ByteOrder.LITTLE_ENDIAN);
        int type = value.getInt();
        long length = value.getLong();
        if (type != 8 || length != name.length) {
            throw new IllegalArgumentException("the architecture of " + model + " is not a string of "
                    + name.length + " bytes");
        }
        System.arraycopy(name, 0, bytes, at + key.length + 12, name.length);
        return Files.write(directory.resolve(architecture + "-" + model.getFileName()), bytes);
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        for (int i = 0; i + pattern.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }

    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        return start;
    }
}

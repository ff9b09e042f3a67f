package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading, sharing and closing models: bad files fail cleanly, and nothing hangs. */
class ModelLoadingTest {

    @TempDir
    Path dir;

    /** The failure of loading the model on the shared runtime (the test fails when it loads). */
    static PaganticException loadFailure(Path model) {
        try {
            LlamaCppEngine.builder().runtime(TestModels.runtime()).modelPath(model).contextSize(64).build();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected the load of " + model + " to fail");
    }

    @Test
    void missingEmptyRandomTruncatedAndDirectoryModelsAreUnavailableAndTheJvmStaysUsable() throws IOException {
        byte[] random = new byte[4096];
        new Random(42).nextBytes(random);
        byte[] stories = Files.readAllBytes(TestModels.model(TestModels.STORIES));
        Path empty = Files.createFile(dir.resolve("empty.gguf"));
        Path noise = Files.write(dir.resolve("random.gguf"), random);
        Path truncated = Files.write(dir.resolve("truncated.gguf"), java.util.Arrays.copyOf(stories, 2048));

        for (Path bad : List.of(dir.resolve("missing.gguf"), empty, noise, truncated, dir)) {
            PaganticException failure = loadFailure(bad);
            assertThat(failure.code()).as("%s", bad).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
            assertThat(failure.details()).containsEntry("path", bad.toAbsolutePath().normalize().toString())
                    .containsKey("reason");
        }
        assertThat(TestModels.stories().infer(Request.builder().addMessage(Message.user("Once")).maxTokens(3).build())
                .usage().outputTokens()).isPositive();
    }

    @Test
    void theListenerHearsALoadAndThenAReuseOfTheSharedModel() {
        List<LoadEvent> events = new ArrayList<>();
        try (LlamaCppEngine first = LlamaCppEngine.builder().runtime(TestModels.runtime())
                .modelPath(TestModels.model(TestModels.TINY_RANDOM)).contextSize(256).threads(2)
                .loadListener(events::add).build();
             LlamaCppEngine second = LlamaCppEngine.builder().runtime(TestModels.runtime())
                     .modelPath(TestModels.model(TestModels.TINY_RANDOM)).contextSize(256).threads(2)
                     .loadListener(events::add).build()) {
            assertThat(first.modelInfo().name()).isEqualTo("llama-2-tiny-random");
            assertThat(second.infer(Request.builder().addMessage(Message.user("hi")).maxTokens(2).build())
                    .usage().outputTokens()).isPositive();
        }
        assertThat(events).extracting(LoadEvent::stage).containsExactly(LoadEvent.Stage.STARTED,
                LoadEvent.Stage.LOADED, LoadEvent.Stage.REUSED);
        assertThat(events.get(1).fraction()).isEqualTo(1.0);
    }

    @Test
    void closingAnEngineDuringARequestStopsItAtTheNextTokenAndLaterCallsFailAsClosed() throws Exception {
        LlamaCppEngine engine = LlamaCppEngine.builder().modelPath(TestModels.model(TestModels.STORIES))
                .contextSize(1024).threads(2).build(); // a private runtime, closed with the engine
        CountDownLatch generating = new CountDownLatch(1);
        CompletableFuture<Object> request = CompletableFuture.supplyAsync(() -> {
            try {
                return engine.infer(CallContext.background(), Request.builder().addMessage(Message.user("Go"))
                                .grammar("root ::= [a-z ]{900,1000}").build(),
                        dev.pagantic.inference.StreamHandler.onContent(delta -> generating.countDown()));
            } catch (PaganticException failure) {
                return failure;
            }
        });
        assertThat(generating.await(1, TimeUnit.MINUTES)).isTrue();

        long started = System.nanoTime();
        engine.close();
        Object outcome = request.get(1, TimeUnit.MINUTES);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        assertThat(outcome).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED));
        try {
            engine.infer(Request.of("again"));
            throw new AssertionError("a closed engine must refuse calls");
        } catch (PaganticException closed) {
            assertThat(closed.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        }
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        for (LlamaCppEngine.Builder builder : List.of(LlamaCppEngine.builder(),
                LlamaCppEngine.builder().modelPath(dir).contextSize(0),
                LlamaCppEngine.builder().modelPath(dir).parallel(0),
                LlamaCppEngine.builder().modelPath(dir).gpuLayers(-1),
                LlamaCppEngine.builder().modelPath(dir).runtime(TestModels.runtime()).nativeLibraryPath(dir))) {
            try {
                builder.build();
                throw new AssertionError("expected CONFIG_INVALID");
            } catch (PaganticException expected) {
                assertThat(expected.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            }
        }
    }

    @Test
    void theRuntimeLoadsTheNativeLibraryFromItsOwnDirectory() {
        assertThat(TestModels.runtime().libraryDirectory().resolve(NativeLibrary.libraryName())).isRegularFile();
        assertThat(System.getProperty(NativeLibrary.LIBRARY_PATH_PROPERTY))
                .isEqualTo(TestModels.runtime().libraryDirectory().toString());
    }
}

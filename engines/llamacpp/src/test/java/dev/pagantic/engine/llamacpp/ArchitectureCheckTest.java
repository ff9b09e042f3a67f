package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GGUF header is read before native code loads a model: its architecture, its chat templates. */
class ArchitectureCheckTest {

    @TempDir
    Path dir;

    @Test
    void aQwen3ModelIsRefusedNamingItsArchitectureTheBundledBuildAndTheWayOut() throws IOException {
        Path qwen3 = dev.pagantic.testkit.TestModels.withArchitecture(TestModels.model(TestModels.STORIES), "qwen3",
                dir);

        PaganticException refused = ModelLoadingTest.loadFailure(qwen3);

        assertThat(refused.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
        assertThat(refused.getMessage()).contains("'qwen3'", "b4916", "llama-server", "OpenAI-compatible engine");
        assertThat(refused.details()).containsEntry("architecture", "qwen3").containsEntry("llama_cpp_build", "b4916")
                .containsEntry("path", qwen3.toAbsolutePath().normalize().toString());
        assertThat(TestModels.stories().infer(Request.builder().addMessage(Message.user("Once")).maxTokens(2).build())
                .usage().outputTokens()).as("the runtime stays usable").isPositive();
    }

    @Test
    void whichArchitecturesTheLibraryKnowsIsReadFromTheLibrary() {
        NativeArchitectures bundled = new NativeArchitectures(
                TestModels.runtime().libraryDirectory().resolve(NativeLibrary.libraryName()));

        assertThat(bundled.mayKnow("llama")).isTrue();
        assertThat(bundled.mayKnow("qwen2")).as("stored as the tail of rwkv6qwen2").isTrue();
        assertThat(bundled.mayKnow("bert")).as("stored as the tail of nomic-bert").isTrue();
        assertThat(bundled.mayKnow("qwen3")).isFalse();
        assertThat(bundled.mayKnow("llama4")).isFalse();
        assertThat(new NativeArchitectures(dir.resolve("missing.so")).mayKnow("qwen3"))
                .as("an unreadable library leaves the decision to the native loader").isTrue();
    }

    @Test
    void theModelsChatTemplatesAreReadFromItsHeaderAndChatmlIsTheFallback() throws IOException {
        Path stories = TestModels.model(TestModels.STORIES);
        Path templated = GgufFiles.withTemplate(stories, dir.resolve("templated.gguf"), "{{ messages }}");

        assertThat(ChatTemplates.of(GgufMetadata.read(stories)).source(true)).isEqualTo(ChatTemplates.CHATML);
        assertThat(ChatTemplates.of(GgufMetadata.read(templated)).source(false)).isEqualTo("{{ messages }}");
        assertThat(GgufMetadata.read(templated).string(GgufMetadata.ARCHITECTURE)).contains("llama");
        ChatTemplates hermes = new ChatTemplates(Optional.of("default"), Optional.of("tool use"));
        assertThat(hermes.source(true)).as("with tools, the tool_use template").isEqualTo("tool use");
        assertThat(hermes.source(false)).isEqualTo("default");
        assertThat(new ChatTemplates(Optional.of("chatml"), Optional.empty()).source(false))
                .isEqualTo(ChatTemplates.CHATML);
    }

    @Test
    void aHeaderWhoseLengthsRunPastTheFileIsRefusedBeforeNativeCode() throws IOException {
        byte[] stories = Files.readAllBytes(TestModels.model(TestModels.STORIES));
        byte[] corrupt = Arrays.copyOf(stories, stories.length);
        Arrays.fill(corrupt, 24, 32, (byte) 0x7f); // the first key's length: far beyond the file

        PaganticException refused = ModelLoadingTest.loadFailure(Files.write(dir.resolve("corrupt.gguf"), corrupt));

        assertThat(refused.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
        assertThat(refused.getMessage()).contains("GGUF header is corrupt");
    }
}

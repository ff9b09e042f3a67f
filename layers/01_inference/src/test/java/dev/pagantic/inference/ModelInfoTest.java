package dev.pagantic.inference;

import static dev.pagantic.inference.Failures.assertConfigInvalid;
import static dev.pagantic.inference.Failures.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ModelInfoTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();

    private static Request needing(Capability capability) {
        Request.Builder builder = Request.builder().addMessage(Message.user("hi"));
        switch (capability) {
            case GRAMMAR -> builder.grammar("root ::= \"ok\"");
            case SCHEMA -> builder.schema(CITY);
            case TOOLS -> builder.addTool(ToolDefinition.of("get_weather", "", CITY));
            default -> throw new IllegalArgumentException("requests do not need " + capability);
        }
        return builder.build();
    }

    @Test
    void modelInfoKeepsNameWindowAndCapabilities() {
        ModelInfo info = ModelInfo.of("qwen2.5-7b-instruct-q4_k_m.gguf", 32_768, Capability.GRAMMAR,
                Capability.STREAMING);

        assertThat(info.name()).isEqualTo("qwen2.5-7b-instruct-q4_k_m.gguf");
        assertThat(info.contextWindow()).isEqualTo(32_768);
        assertThat(info.capabilities()).containsExactlyInAnyOrder(Capability.GRAMMAR, Capability.STREAMING);
        assertThat(info.supports(Capability.GRAMMAR)).isTrue();
        assertThat(info.supports(Capability.TOOLS)).isFalse();
    }

    @Test
    void negativeContextWindowIsRejected() {
        assertConfigInvalid(() -> ModelInfo.of("m", -1));
    }

    @Test
    void capabilitiesAreCopiedAndUnmodifiable() {
        Set<Capability> declared = EnumSet.of(Capability.TOOLS);
        ModelInfo info = new ModelInfo("m", 0, declared);

        declared.add(Capability.GRAMMAR);

        assertThat(info.capabilities()).containsExactly(Capability.TOOLS);
        assertThatThrownBy(() -> info.capabilities().add(Capability.SCHEMA))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @EnumSource(value = Capability.class, names = {"GRAMMAR", "SCHEMA", "TOOLS"})
    void requestNeedingAnUndeclaredCapabilityIsRefused(Capability capability) {
        Set<Capability> allOthers = EnumSet.complementOf(EnumSet.of(capability));
        ModelInfo info = new ModelInfo("tiny.gguf", 2048, allOthers);

        PaganticException failure = assertFailsWith(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                () -> info.requireSupported(needing(capability)));

        assertThat(failure.details()).containsEntry("model", "tiny.gguf")
                .containsEntry("capability", capability.name());
        assertThat(failure.retryable()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = Capability.class, names = {"GRAMMAR", "SCHEMA", "TOOLS"})
    void requestNeedingADeclaredCapabilityIsAccepted(Capability capability) {
        ModelInfo info = ModelInfo.of("m", 0, capability);

        assertThatCode(() -> info.requireSupported(needing(capability))).doesNotThrowAnyException();
    }

    @Test
    void plainRequestNeedsNoCapability() {
        assertThatCode(() -> ModelInfo.of("m", 0).requireSupported(Request.of("hi"))).doesNotThrowAnyException();
    }

    @Test
    void missingCapabilityAmongSeveralNeededOnesIsReported() {
        Request grammarAndTools = needing(Capability.GRAMMAR).toBuilder()
                .addTool(ToolDefinition.of("get_weather", "", CITY)).build();
        ModelInfo grammarOnly = ModelInfo.of("m", 0, Capability.GRAMMAR);

        PaganticException failure = assertFailsWith(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                () -> grammarOnly.requireSupported(grammarAndTools));

        assertThat(failure.details()).containsEntry("capability", "TOOLS");
    }
}

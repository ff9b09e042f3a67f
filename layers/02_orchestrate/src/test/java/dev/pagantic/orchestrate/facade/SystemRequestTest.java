package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemRequestTest {

    private static final Schema SCHEMA = Schema.object().required("answer", Schema.string()).build();
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Current weather",
            Schema.object().required("city", Schema.string()).build());

    @Test
    void aBuilderDefaultsToChatWithNoHintsNoContractAndAllTools() {
        SystemRequest request = SystemRequest.builder().user("hello").build();

        assertThat(request.mode()).isEqualTo(Mode.CHAT);
        assertThat(request.hints()).isEqualTo(ExecutionHints.DEFAULTS);
        assertThat(request.output()).isEqualTo(OutputContract.none());
        assertThat(request.tools()).isEmpty();
        assertThat(request.callerTools()).isEmpty();
        assertThat(request.allowsTool("anything")).isTrue();
        assertThat(request.messages()).containsExactly(Message.user("hello"));
    }

    @Test
    void idsMayBeEmptyUntilInit() {
        SystemRequest request = SystemRequest.builder().user("hi").build();

        assertThat(request.requestId()).isEmpty();
        assertThat(request.sessionId()).isEmpty();
        assertThat(request.traceId()).isEmpty();
        assertThat(request.hasSession()).isFalse();
    }

    @Test
    void missingRequestAndTraceIdsAreGeneratedButNeverASessionId() {
        SystemRequest request = SystemRequest.builder().user("hi").build();

        SystemRequest assigned = request.withMissingIds(IdGenerator.sequential("id-"));

        assertThat(assigned.requestId()).isEqualTo("id-1");
        assertThat(assigned.traceId()).isEqualTo("id-2");
        assertThat(assigned.sessionId()).isEmpty();
        assertThat(assigned.messages()).isEqualTo(request.messages());
    }

    @Test
    void givenIdsAreKeptWhenIdsAreAssigned() {
        SystemRequest request = SystemRequest.builder().requestId("req-7").sessionId("s-1").traceId("trace-9")
                .user("hi").build();

        assertThat(request.withMissingIds(IdGenerator.sequential("id-"))).isSameAs(request);
        assertThat(request.hasSession()).isTrue();
    }

    @Test
    void aBlankGeneratedIdIsRejected() {
        SystemRequest request = SystemRequest.builder().user("hi").build();

        assertConfigInvalid(() -> request.withMissingIds(() -> ""));
    }

    @Test
    void aRequestWithoutMessagesBuildsButFailsEnvelopeValidation() {
        SystemRequest request = SystemRequest.builder().build();

        assertFailsWith(ErrorCode.CONFIG_INVALID, request::validate);
    }

    @Test
    void structuredModeWithoutASchemaFailsWithSchemaRequired() {
        SystemRequest request = SystemRequest.builder().mode(Mode.STRUCTURED).user("extract").build();

        assertFailsWith(ErrorCode.CONFIG_SCHEMA_REQUIRED, request::validate);
    }

    @Test
    void redundantModeWithoutASchemaFailsWithSchemaRequired() {
        SystemRequest request = SystemRequest.builder().mode(Mode.REDUNDANT).user("classify").build();

        assertFailsWith(ErrorCode.CONFIG_SCHEMA_REQUIRED, request::validate);
    }

    @Test
    void aWellFormedEnvelopePassesValidation() {
        SystemRequest structured = SystemRequest.builder().mode(Mode.STRUCTURED).user("extract")
                .output(OutputContract.of(SCHEMA)).build();
        SystemRequest plan = SystemRequest.builder().mode(Mode.PLAN).user("research").build();

        assertThat(structured.validate()).isSameAs(structured);
        assertThat(plan.validate()).isSameAs(plan);
    }

    @Test
    void theWhitelistAllowsOnlyTheNamedTools() {
        SystemRequest request = SystemRequest.builder().user("hi").tools("search", "get_weather").build();

        assertThat(request.tools()).containsExactly("search", "get_weather");
        assertThat(request.allowsTool("search")).isTrue();
        assertThat(request.allowsTool("delete_everything")).isFalse();
    }

    @Test
    void blankOrDuplicateWhitelistNamesAreConfigurationErrors() {
        assertConfigInvalid(() -> SystemRequest.builder().tools("search", "search").build());
        assertConfigInvalid(() -> SystemRequest.builder().tools(" ").build());
        assertConfigInvalid(() -> SystemRequest.builder().tools((String) null));
    }

    @Test
    void callerToolsAreCarriedAndMustHaveDistinctNames() {
        SystemRequest request = SystemRequest.builder().user("weather?").callerTool(WEATHER).build();

        assertThat(request.callerTools()).containsExactly(WEATHER);
        assertConfigInvalid(() -> SystemRequest.builder().callerTools(List.of(WEATHER, WEATHER)).build());
    }

    @Test
    void nullPartsAreConfigurationErrorsNotNullPointerExceptions() {
        assertConfigInvalid(() -> SystemRequest.builder().mode(null));
        assertConfigInvalid(() -> SystemRequest.builder().requestId(null));
        assertConfigInvalid(() -> SystemRequest.builder().message(null));
        assertConfigInvalid(() -> new SystemRequest("", "", "", Arrays.asList(Message.user("a"), null), Mode.CHAT,
                ExecutionHints.DEFAULTS, OutputContract.none(), List.of(), List.of()));
        assertConfigInvalid(() -> new SystemRequest("", "", "", List.of(), Mode.CHAT, null, OutputContract.none(),
                List.of(), List.of()));
    }

    @Test
    void theRequestDoesNotAliasTheCallersLists() {
        List<Message> messages = new ArrayList<>(List.of(Message.user("one")));
        List<String> tools = new ArrayList<>(List.of("search"));
        SystemRequest request = new SystemRequest("", "", "", messages, Mode.CHAT, ExecutionHints.DEFAULTS,
                OutputContract.none(), tools, List.of());

        messages.add(Message.user("two"));
        tools.add("other");

        assertThat(request.messages()).hasSize(1);
        assertThat(request.tools()).containsExactly("search");
        assertThatThrownBy(() -> request.messages().add(Message.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toBuilderRoundTripsEveryField() {
        SystemRequest request = SystemRequest.builder().requestId("r").sessionId("s").traceId("t")
                .system("be brief").user("hi").mode(Mode.STRUCTURED).output(OutputContract.of(SCHEMA))
                .hints(ExecutionHints.builder().maxTokens(64).build()).tools(List.of("search"))
                .callerTool(WEATHER).build();

        assertThat(request.toBuilder().build()).isEqualTo(request);
        assertThat(request.toBuilder().user("again").build().messages()).hasSize(3);
    }
}

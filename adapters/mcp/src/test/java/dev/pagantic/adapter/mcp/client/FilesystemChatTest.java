package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.ToolCall;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import dev.pagantic.tool.SideEffect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat on a real llama.cpp model (stories260K) whose forced tool call reads a file through the MCP project's
 * filesystem server (npm {@code @modelcontextprotocol/server-filesystem}) on a temporary folder. The tool is
 * {@code read_media_file}, whose only argument is the path: the text tools also take line counts, which this model
 * fills with nonsense (a head of -5.1 lines, that is none).
 *
 * <p>The model is a 260K-parameter story model: it cannot know a file name, so the grammar-constrained call it is
 * forced to make names whatever path it likes. The test puts a file there (inside the served folder, where the
 * server resolves relative paths) as soon as the model has asked for it, before the orchestrator runs the call:
 * what is tested is the path from the model's call through the whitelist, the MCP client and the real server back
 * into the conversation.
 */
@Timeout(180)
class FilesystemChatTest {

    @TempDir
    Path folder;

    @Test
    void aForcedToolCallReadsAFileThroughTheFilesystemServerAndTheModelSeesItsContent() throws Exception {
        Path model = ModelAssumptions.require(TestModels.STORIES);
        List<String> command = new ArrayList<>(NodeServers.filesystem());
        Path served = folder.toRealPath();
        command.add(served.toString());
        String secret = "The treasure is under the old oak tree.";

        try (McpToolbox files = McpToolbox.builder()
                     .server(McpServerConfig.stdio("files", command.get(0), command.subList(1, command.size())))
                     .skipRefusedTools(true).build();
             Engine engine = new FileMaker(LlamaCppEngine.builder().modelPath(model).contextSize(4096).build(),
                     served, secret);
             Orchestrator orchestrator = Orchestrator.builder().engine(engine).tools(files.registry())
                     .maxToolIterations(2).build()) {
            assertThat(files.registry().lookup("read_media_file").orElseThrow().safety().sideEffect())
                    .isEqualTo(SideEffect.READ);

            SystemResponse response = orchestrator.execute(SystemRequest.builder()
                    .user("Read the file, please.")
                    .tools("read_media_file")
                    .hints(ExecutionHints.builder().maxTokens(200).temperature(0)
                            .option("tool_choice", "required").option("parallel_tool_calls", false).build())
                    .build());

            assertThat(response.toolCallsMade()).as("%s", response).isNotEmpty();
            ToolCallRecord read = response.toolCallsMade().get(0);
            assertThat(read.name()).isEqualTo("read_media_file");
            assertThat(read.isError()).as(read.result()).isFalse();
            // the server read the file and sent it base64-encoded; the model sees it described, with its size
            assertThat(read.result()).as("%s", read.arguments()).startsWith("[resource file://")
                    .endsWith(" " + secret.getBytes(StandardCharsets.UTF_8).length + " bytes]");
        }
    }

    /**
     * Puts a file wherever the model's first tool call says it wants to read one, and has the model answer in text
     * once it has seen the result (stories260K follows no instructions: offered tools again, it may call them forever).
     */
    private static final class FileMaker implements Engine {
        private final Engine delegate;
        private final Path folder;
        private final String content;

        FileMaker(Engine delegate, Path folder, String content) {
            this.delegate = delegate;
            this.folder = folder;
            this.content = content;
        }

        @Override
        public Result infer(CallContext context, Request request) {
            return infer(context, request, StreamHandler.NOOP);
        }

        @Override
        public Result infer(CallContext context, Request request, StreamHandler handler) {
            List<Message> messages = request.messages();
            Request turn = messages.get(messages.size() - 1).role() == Role.TOOL
                    ? request.toBuilder().option("tool_choice", "none").build() : request;
            Result result = delegate.infer(context, turn, handler);
            for (ToolCall call : result.toolCalls()) {
                if (call.arguments().get("path") instanceof String path) {
                    make(folder.resolve(path).normalize());
                }
            }
            return result;
        }

        private void make(Path file) {
            if (file.startsWith(folder) && !file.equals(folder)) {
                try {
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, content);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public dev.pagantic.inference.ModelInfo modelInfo() {
            return delegate.modelInfo();
        }

        @Override
        public dev.pagantic.inference.TokenCounter tokenCounter() {
            return delegate.tokenCounter();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}

package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.Message;
import dev.pagantic.inference.Request;

/**
 * Run in a child JVM by {@link JvmExitTest}: an application that uses a llama.cpp engine in try-with-resources and
 * returns from {@code main} without {@code System.exit}. Scenario {@code throws} ends {@code main} with an exception;
 * {@code worker} leaves a non-daemon thread of its own running for a while, which the JVM must wait for.
 */
public final class ExitProbe {

    private ExitProbe() {
    }

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        try (LlamaRuntime runtime = LlamaRuntime.create();
             LlamaCppEngine engine = LlamaCppEngine.builder().runtime(runtime)
                     .modelPath(TestModels.model(TestModels.STORIES)).contextSize(256).threads(2).build()) {
            System.out.println("ANSWER " + engine.infer(Request.builder().addMessage(Message.user("Once"))
                    .maxTokens(4).build()).usage().outputTokens());
        }
        if (scenario.equals("worker")) {
            Thread worker = new Thread(() -> {
                sleep(1500);
                System.out.println("WORKER DONE");
            }, "application-worker");
            worker.start();
        }
        System.out.println("MAIN RETURNS");
        System.out.flush();
        if (scenario.equals("throws")) {
            throw new IllegalStateException("main failed on purpose");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.pagantic.prompt;

import java.util.Objects;

/**
 * One piece of retrieved context to place into a prompt: where it came from and what it says. The prompt layer does
 * not depend on the context layer; orchestrate converts its chunks to snippets at the call site
 * ({@code new ContextSnippet(chunk.source(), chunk.content())}).
 *
 * @param source  where the text came from (a file, a URL, a document id); may be empty
 * @param content the text
 */
public record ContextSnippet(String source, String content) {

    public ContextSnippet {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(content, "content");
    }

    /** A snippet without a source. */
    public static ContextSnippet of(String content) {
        return new ContextSnippet("", content);
    }

    /** The snippet as one numbered line of a context block: {@code [n] (source): content}, or {@code [n] content}. */
    String render(int number) {
        return source.isEmpty() ? "[" + number + "] " + content : "[" + number + "] (" + source + "): " + content;
    }
}

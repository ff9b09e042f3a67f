package dev.pagantic.archfixture.compliant.testkit;

import dev.pagantic.archfixture.compliant.inference.Engine;
import dev.pagantic.archfixture.compliant.inference.Request;
import java.util.List;

/** A testkit engine: it counts as an engine and depends on inference only. */
public final class ScriptedEngine implements Engine {

    private final List<String> replies;

    public ScriptedEngine(List<String> replies) {
        this.replies = List.copyOf(replies);
    }

    @Override
    public String infer(Request request) {
        return replies.get(Math.min(request.messages().size(), replies.size()) - 1);
    }

    @Override
    public void close() {
        // nothing to release
    }
}

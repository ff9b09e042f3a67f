package dev.pagantic.archfixture.compliant.engine.fake;

import dev.pagantic.archfixture.compliant.inference.Engine;
import dev.pagantic.archfixture.compliant.inference.FinishReason;
import dev.pagantic.archfixture.compliant.inference.Request;

/**
 * An engine built through a builder. Its switch over an inference enum makes javac generate a synthetic class with a
 * static {@code $SwitchMap$...} array, which the mutable-state rules must ignore.
 */
public final class FakeEngine implements Engine {

    private final String reply;
    private final FinishReason finishReason;

    private FakeEngine(String reply, FinishReason finishReason) {
        this.reply = reply;
        this.finishReason = finishReason;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String infer(Request request) {
        switch (finishReason) {
            case STOP:
                return reply;
            case LENGTH:
                return reply.substring(0, reply.length() / 2);
            default:
                throw new IllegalStateException("unknown finish reason " + finishReason);
        }
    }

    @Override
    public void close() {
        // nothing to release
    }

    /** Configures a fake engine. */
    public static final class Builder {

        private String reply = "";
        private FinishReason finishReason = FinishReason.STOP;

        public Builder reply(String value) {
            this.reply = value;
            return this;
        }

        public Builder finishReason(FinishReason value) {
            this.finishReason = value;
            return this;
        }

        public FakeEngine build() {
            return new FakeEngine(reply, finishReason);
        }
    }
}

package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of vote mode.
 *
 * @param responses   every voter's response, in voter order, failed ones included (with their failure)
 * @param selected    the index in {@code responses} of the judge's choice
 * @param judge       the judge engine's id
 * @param judgeReason the judge's stated reason
 * @param calls       every successful call, in order (voters, then the judge)
 * @param usage       the usage summed over every successful call
 * @param cost        the cost summed over every successful call
 */
public record VoteResult(List<Response> responses, int selected, String judge, String judgeReason,
                         List<PhaseCall> calls, TokenUsage usage, BigDecimal cost) {

    /** The reason string of this mode. */
    public static final String REASON = "vote-orchestration";

    public VoteResult {
        responses = List.copyOf(responses);
        calls = List.copyOf(calls);
    }

    /** {@value #REASON}. */
    public String reason() {
        return REASON;
    }

    /** The selected response's content. */
    public String content() {
        return responses.get(selected).content();
    }

    /** The seed's output object: {@code responses, selected, judge}, plus the judge's reason, cost and reason. */
    public Map<String, Object> toMap() {
        List<Object> list = new ArrayList<>();
        for (Response response : responses) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("model", response.model());
            item.put("content", response.content());
            item.put("selected", response.selected());
            response.failure().ifPresent(f -> item.put("failure", failureMap(f)));
            list.add(item);
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("responses", list);
        map.put("selected", selected);
        map.put("judge", judge);
        map.put("judge_reason", judgeReason);
        map.put("cost", cost.toPlainString());
        map.put("reason", REASON);
        return map;
    }

    static Map<String, Object> failureMap(PaganticException failure) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("code", failure.code().name());
        map.put("message", failure.getMessage());
        return map;
    }

    /**
     * One voter's response.
     *
     * @param model    the voter's catalogue id
     * @param content  its answer; empty when it failed
     * @param selected whether the judge chose it
     * @param failure  why it has no answer
     */
    public record Response(String model, String content, boolean selected, Optional<PaganticException> failure) {

        /** Whether the voter answered. */
        public boolean succeeded() {
            return failure.isEmpty();
        }
    }
}

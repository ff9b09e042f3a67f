package dev.pagantic.adapter.tui;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.Map;

/** The demo tool of scripted mode (and of {@code --demo-tools}): a weather report that needs no network. */
final class DemoTools {

    /** The demo tool's definition: {@code get_weather(city)}. */
    static final ToolDefinition GET_WEATHER = ToolDefinition.of("get_weather",
            "The current weather in a city (a canned demo answer)",
            Schema.object().required("city", Schema.string()).build());

    private DemoTools() {
    }

    /** The tools with the demo tool registered. */
    static ToolSet.Builder register(ToolSet.Builder tools) {
        return tools.add(GET_WEATHER, DemoTools::weather);
    }

    /** The canned answer: deterministic, so that a scripted session always shows the same result. */
    static String weather(CallContext ctx, Map<String, Object> arguments) {
        return "Sunny and 21 °C in " + arguments.get("city");
    }
}

package dev.pagantic.adapter.mcp.server;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import java.time.Duration;

/** The tools the server tests serve: a pure one, a writing one, and one slower than its timeout. */
final class ServedTools {

    private ServedTools() {
    }

    static Tool add() {
        return Tool.builder(ToolDefinition.of("add", "Adds two integers", Schema.object()
                        .required("a", Schema.integer()).required("b", Schema.integer()).build()))
                .safety(ToolSafety.PURE)
                .handler((ctx, args) -> String.valueOf(((Number) args.get("a")).longValue()
                        + ((Number) args.get("b")).longValue()))
                .build();
    }

    static Tool appendNote() {
        return Tool.builder(ToolDefinition.of("append_note", "Appends a note", Schema.object()
                        .required("text", Schema.string()).build()))
                .safety(ToolSafety.of(SideEffect.WRITE, false))
                .handler((ctx, args) -> "noted: " + args.get("text"))
                .build();
    }

    static Tool slow() {
        return Tool.builder(ToolDefinition.of("slow", "Takes longer than it may", Schema.object().build()))
                .safety(ToolSafety.READ_ONLY)
                .timeout(Duration.ofMillis(200))
                .handler((ctx, args) -> {
                    ctx.sleep(Duration.ofSeconds(30));
                    return "too late";
                })
                .build();
    }

    static ToolRegistry registry() {
        return ToolRegistry.of(add(), appendNote(), slow());
    }
}

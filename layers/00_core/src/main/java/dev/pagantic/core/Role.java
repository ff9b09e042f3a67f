package dev.pagantic.core;

/** Who a {@link Message} is from. */
public enum Role {
    SYSTEM("system"),
    USER("user"),
    ASSISTANT("assistant"),
    TOOL("tool");

    private final String wireName;

    Role(String wireName) {
        this.wireName = wireName;
    }

    /** The lower-case name used by chat templates and OpenAI-compatible wire formats. */
    public String wireName() {
        return wireName;
    }

    /** The role with the given wire name. */
    public static Role fromWireName(String name) {
        for (Role role : values()) {
            if (role.wireName.equals(name)) {
                return role;
            }
        }
        throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "unknown role: " + name).detail("role", name).build();
    }
}

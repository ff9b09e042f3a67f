package dev.pagantic.inference.grammar;

/**
 * Whether a string is accepted by a grammar and, if not, where it went wrong.
 *
 * @param accepted whether the whole string is a sentence of the grammar
 * @param offset   for a rejection, the UTF-16 offset of the first character no parse could take, or the string's
 *                 length when it ended too early; -1 when accepted
 * @param reason   why it was rejected; empty when accepted
 */
public record GrammarMatch(boolean accepted, int offset, String reason) {

    static final GrammarMatch ACCEPTED = new GrammarMatch(true, -1, "");

    static GrammarMatch rejected(int offset, String reason) {
        return new GrammarMatch(false, offset, reason);
    }
}

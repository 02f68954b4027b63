/* What both pages show the same way, before each page's own script (views/html.py SCRIPTS).
 *
 * TenhouText.escaped: text from a log or a path as the terminal shows it (serialize.visible): a
 * character that would move, hide or break the text (controls, format characters, line and
 * paragraph separators) is shown as its escape, \x1b or \u202e, never as itself.
 *
 * TenhouText.fixed: a number as text by the project's one rounding rule (tenhou_tools/rounding.py,
 * the terminal's): a half rounds away from zero (R2118.5 -> R2119, -2.5 -> -3), from the number
 * as stored. Number.prototype.toFixed rounds the exact value of the double and picks the larger
 * magnitude of two as near, which is that rule; Math.round (a half towards +infinity) is not
 * used for a number people read. Never "-0". */
var TenhouText = {
  escaped: function (text) {
    return String(text).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, function (ch) {
      var code = ch.codePointAt(0);
      var hex = code.toString(16);
      if (code < 0x100) return "\\x" + ("0" + hex).slice(-2);
      if (code < 0x10000) return "\\u" + ("000" + hex).slice(-4);
      return "\\U" + ("0000000" + hex).slice(-8);
    });
  },

  /* `value` with `digits` decimals; options.plus: "+" before a value that is not negative;
   * options.grouping: a comma every three digits (7,775). */
  fixed: function (value, digits, options) {
    var text = Number(value).toFixed(digits || 0);
    if (/^-[0.]+$/.test(text)) text = text.slice(1);
    if (options && options.grouping) {
      text = text.replace(/^-?\d+/, function (whole) { return whole.replace(/\B(?=(\d{3})+$)/g, ","); });
    }
    return (options && options.plus && text.charAt(0) !== "-" ? "+" : "") + text;
  }
};

import MyPassXML
import Testing

@Suite("XML: well-formedness errors")
struct WellFormednessTests {
    @Test("tags must match and close")
    func tags() {
        #expect(errorCode("<a><b></a></b>") == .mismatchedTag)
        #expect(errorCode("<a></A>") == .mismatchedTag)
        #expect(errorCode("<a></a></a>") == .mismatchedTag)
        #expect(errorCode("<a><b>") == .unclosedTag)
        #expect(errorCode("<a>text") == .unclosedTag)
        #expect(errorCode("") == .unexpectedEndOfInput)
        #expect(errorCode("  \n") == .unexpectedEndOfInput)
        #expect(errorCode("<a") == .unexpectedEndOfInput)
        #expect(errorCode("<a x='1") == .unexpectedEndOfInput)
        #expect(errorCode("<a><!-- x") == .unexpectedEndOfInput)
        #expect(errorCode("<a></a") == .unexpectedEndOfInput)
    }

    @Test("names")
    func names() {
        #expect(errorCode("<1a/>") == .invalidName)
        #expect(errorCode("<-a/>") == .invalidName)
        #expect(errorCode("< a/>") == .invalidName)
        #expect(errorCode("<a b@='1'/>") == .malformed)
        #expect(errorCode("<a 9='1'/>") == .invalidName)
        #expect(errorCode("<a\u{00D7}/>") == .invalidName)  // × is not a NameChar
        #expect(errorCode("<\u{2030}/>") == .invalidName)
        #expect(errorCode("<a></>") == .invalidName)
        #expect(errorCode("<a><?1x?></a>") == .invalidName)
    }

    @Test("syntax inside tags")
    func tagSyntax() {
        #expect(errorCode("<a x/>") == .malformed)
        #expect(errorCode("<a x=1/>") == .malformed)
        #expect(errorCode("<a x='1'y='2'/>") == .malformed)
        #expect(errorCode("<a / >") == .malformed)
        #expect(errorCode("<a></a x>") == .malformed)
        #expect(errorCode("<a x='1' x='2'/>") == .duplicateAttribute)
        #expect(errorCode("<a x='<'/>") == .ltInAttribute)
        #expect(errorCode("<a x=\"a<b\">") == .ltInAttribute)
        #expect(errorCode("<a x='&#60;'/>") == nil)  // a referenced < is fine
        #expect(errorCode("<a <b/>") == .malformed)
    }

    @Test("references")
    func references() {
        #expect(errorCode("<a>&nbsp;</a>") == .unknownEntity)
        #expect(errorCode("<a x='&copy;'/>") == .unknownEntity)
        #expect(errorCode("<a>& b</a>") == .malformed)
        #expect(errorCode("<a>&amp</a>") == .malformed)
        #expect(errorCode("<a>&;</a>") == .malformed)
        #expect(errorCode("<a>&#;</a>") == .malformed)
        #expect(errorCode("<a>&#x;</a>") == .malformed)
        #expect(errorCode("<a>&#12a;</a>") == .malformed)
        #expect(errorCode("<a>&#0;</a>") == .invalidCharacter)
        #expect(errorCode("<a>&#x2;</a>") == .invalidCharacter)
        #expect(errorCode("<a>&#xD800;</a>") == .invalidCharacter)
        #expect(errorCode("<a>&#xFFFE;</a>") == .invalidCharacter)
        #expect(errorCode("<a>&#x110000;</a>") == .invalidCharacter)
        #expect(errorCode("<a>&#99999999999999999999;</a>") == .invalidCharacter)
    }

    @Test("characters XML 1.0 forbids")
    func forbiddenCharacters() {
        for c: UInt8 in [0x00, 0x01, 0x02, 0x08, 0x0B, 0x0C, 0x0E, 0x1F] {
            #expect(errorCode([0x3C, 0x61, 0x3E, c, 0x3C, 0x2F, 0x61, 0x3E]) == .invalidCharacter, "text \(c)")
            #expect(errorCode(Array("<a x='".utf8) + [c] + Array("'/>".utf8)) == .invalidCharacter, "attribute \(c)")
            #expect(errorCode(Array("<a><!--".utf8) + [c] + Array("--></a>".utf8)) == .invalidCharacter, "comment \(c)")
            #expect(errorCode(Array("<a><![CDATA[".utf8) + [c] + Array("]]></a>".utf8)) == .invalidCharacter, "cdata \(c)")
        }
        #expect(errorCode("<a>\u{FFFE}</a>") == .invalidCharacter)
        #expect(errorCode("<a>\u{FFFF}</a>") == .invalidCharacter)
        #expect(errorCode("<a>\u{FFFD}\u{7F}\u{85}\u{10FFFF}</a>") == nil)
    }

    @Test("broken UTF-8")
    func brokenUTF8() {
        let cases: [[UInt8]] = [
            [0x80],  // lone continuation
            [0xC3],  // truncated 2-byte
            [0xC0, 0xAF],  // overlong
            [0xE0, 0x80, 0xAF],  // overlong 3-byte
            [0xED, 0xA0, 0x80],  // surrogate D800
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF8, 0x88, 0x80, 0x80, 0x80],  // 5-byte form
            [0xE6, 0x97],  // truncated 3-byte
            [0xFF],
        ]
        for bad in cases {
            #expect(errorCode(Array("<a>".utf8) + bad + Array("</a>".utf8)) == .invalidUTF8, "text \(bad)")
            #expect(errorCode(Array("<a x='".utf8) + bad + Array("'/>".utf8)) == .invalidUTF8, "attribute \(bad)")
            #expect(errorCode(Array("<a".utf8) + bad + Array("/>".utf8)) == .invalidUTF8, "name \(bad)")
        }
        #expect(errorCode([0xEF, 0xBB] + Array("<a/>".utf8)) == .invalidUTF8)
    }

    @Test("one root element; content after it")
    func root() {
        #expect(errorCode("<a/><b/>") == .contentAfterRoot)
        #expect(errorCode("<a></a>text") == .contentAfterRoot)
        #expect(errorCode("text<a/>") == .malformed)
        #expect(errorCode("<a/><![CDATA[x]]>") == .malformed)
        #expect(errorCode("<a/>\n<!-- ok --><?ok?>\n") == nil)
    }

    @Test("text, comment and CDATA rules")
    func contentRules() {
        #expect(errorCode("<a>x]]>y</a>") == .malformed)
        #expect(errorCode("<a><!-- a -- b --></a>") == .malformed)
        #expect(errorCode("<a><!-- a ---></a>") == .malformed)
        #expect(errorCode("<a><!- x --></a>") == .malformed)
        #expect(errorCode("<a><![CDATX[x]]></a>") == .malformed)
        #expect(errorCode("<a><!ELEMENT a ANY></a>") == .malformed)
        #expect(errorCode("<a><?pi?x?></a>") == .malformed)
    }
}

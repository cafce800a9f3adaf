"""Answer can_fetch questions with the machine's urllib.robotparser.

Used by robots' TestPythonLegacy* tests. Reads one JSON object a line on
stdin: {"body": base64 of the robots.txt bytes, "agents": [...],
"urls": [...]}, and writes one JSON line a case: {"verdicts": [[...] per
agent]}, each verdict true, false or "raise" (can_fetch raised). The body
is read as RobotFileParser.read() reads a fetched file: decoded as UTF-8
(a body that is not makes read() raise before parse(), and the parser
stays unread) and cut with str.splitlines(); an exception of parse() ends
the parse where it happened, as it would for the caller of read().
"""
import base64
import json
import sys
import urllib.robotparser


def answer(case):
    body = base64.b64decode(case["body"])
    parser = urllib.robotparser.RobotFileParser()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        try:
            parser.parse(text.splitlines())
        except Exception:
            pass
    verdicts = []
    for agent in case["agents"]:
        row = []
        for url in case["urls"]:
            try:
                row.append(bool(parser.can_fetch(agent, url)))
            except Exception:
                row.append("raise")
        verdicts.append(row)
    return {"verdicts": verdicts}


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=False)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Slash-command descriptions in English, 繁體中文 and 简体中文.

Discord shows a command's description in the viewer's client language when the
command was synced with a localisation for it. discord.py collects those at
sync time from the tree's ``Translator``: every description is a ``locale_str``
whose English text is the default and whose ``key`` finds the translations here.
Command and option *names* stay English (they are what people type after ``/``).

These are texts of the Discord surface only; replies come from the core's
catalogs in the channel's locale.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextTypes, locale_str

#: Discord client languages → the bot's locales (others see the English default).
DISCORD_LOCALES: dict[Locale, str] = {
    Locale.taiwan_chinese: "zh-Hant",
    Locale.chinese: "zh-Hans",
    Locale.american_english: "en",
    Locale.british_english: "en",
}

STRINGS: dict[str, dict[str, str]] = {
    "roll": {"en": "Roll dice for everyone to see",
             "zh-Hant": "公開擲骰", "zh-Hans": "公开掷骰"},
    "roll.expression": {"en": "Dice expression, e.g. 2d6+3 or d20 adv",
                        "zh-Hant": "骰子算式，例如 2d6+3 或 d20 adv",
                        "zh-Hans": "骰子算式，例如 2d6+3 或 d20 adv"},
    "roll.reason": {"en": "What the roll is for",
                    "zh-Hant": "擲骰的原因", "zh-Hans": "掷骰的原因"},
    "rh": {"en": "Hidden roll: the result goes only to you and the GMs",
           "zh-Hant": "暗骰：結果只給你和 GM", "zh-Hans": "暗骰：结果只给你和 GM"},
    "check": {"en": "Skill or attribute check with your active character",
              "zh-Hant": "用目前角色的技能或屬性檢定",
              "zh-Hans": "用当前角色的技能或属性检定"},
    "check.skill": {"en": "Skill or attribute on your sheet",
                    "zh-Hant": "角色卡上的技能或屬性", "zh-Hans": "角色卡上的技能或属性"},
    "check.modifier": {"en": "Situational modifier, e.g. 2 or -1",
                       "zh-Hant": "情境修正值，例如 2 或 -1",
                       "zh-Hans": "情境修正值，例如 2 或 -1"},
    "check.threshold": {"en": "Threshold to reach (the system's default when empty)",
                        "zh-Hant": "閾值（留空用規則預設）",
                        "zh-Hans": "阈值（留空用规则默认）"},
    "st": {"en": "Set or show the stats of your active character",
           "zh-Hant": "設定或查看目前角色的數值", "zh-Hans": "设定或查看当前角色的数值"},
    "st.values": {"en": "e.g. 觀察 5 靈巧 12, 觀察+1, show, del 力量",
                  "zh-Hant": "例如 觀察 5 靈巧 12、觀察+1、show、del 力量",
                  "zh-Hans": "例如 观察 5 灵巧 12、观察+1、show、del 力量"},
    "pc": {"en": "Your characters: new, list, switch, rename, del",
           "zh-Hant": "你的角色：new、list、switch、rename、del",
           "zh-Hans": "你的角色：new、list、switch、rename、del"},
    "pc.args": {"en": "e.g. new Alice, switch Bob",
                "zh-Hant": "例如 new 艾莉絲、switch 鮑伯",
                "zh-Hans": "例如 new 艾莉丝、switch 鲍勃"},
    "gm": {"en": "Game masters of this channel",
           "zh-Hant": "本頻道的 GM（主持人）", "zh-Hans": "本频道的 GM（主持人）"},
    "gm.action": {"en": "What to do (default: claim the GM seat if it is free)",
                  "zh-Hant": "要做什麼（預設：GM 空缺時就任）",
                  "zh-Hans": "要做什么（默认：GM 空缺时就任）"},
    "gm.user": {"en": "Who to add or remove",
                "zh-Hant": "要加入或移除的人", "zh-Hans": "要加入或移除的人"},
    "gm.claim": {"en": "claim the GM seat", "zh-Hant": "就任 GM", "zh-Hans": "就任 GM"},
    "gm.list": {"en": "list the GMs", "zh-Hant": "列出 GM", "zh-Hans": "列出 GM"},
    "gm.add": {"en": "add a GM", "zh-Hant": "加入 GM", "zh-Hans": "加入 GM"},
    "gm.del": {"en": "remove a GM", "zh-Hant": "移除 GM", "zh-Hans": "移除 GM"},
    "gm.pending": {"en": "resend secrets that could not be delivered",
                   "zh-Hant": "補發未送達的私訊", "zh-Hans": "补发未送达的私信"},
    "init": {"en": "Initiative order and turns",
             "zh-Hant": "先攻順序與回合", "zh-Hans": "先攻顺序与回合"},
    "init.args": {"en": "Sub-command and arguments, as after this table's initiative "
                        "command (start, join, end …)",
                  "zh-Hant": "子指令與參數，同本桌先攻指令之後的內容（start、join、end…）",
                  "zh-Hans": "子指令与参数，同本桌先攻指令之后的内容（start、join、end…）"},
    "system": {"en": "Show or set this channel's game system",
               "zh-Hant": "查看或設定本頻道的規則系統",
               "zh-Hans": "查看或设定本频道的规则系统"},
    "system.id": {"en": "System id (empty: show the current one)",
                  "zh-Hant": "系統代號（留空：查看目前的）",
                  "zh-Hans": "系统代号（留空：查看当前的）"},
    "lang": {"en": "Show or set the language of the bot's replies here",
             "zh-Hant": "查看或設定本頻道回覆的語言",
             "zh-Hans": "查看或设定本频道回复的语言"},
    "lang.locale": {"en": "Language (empty: show the current one)",
                    "zh-Hant": "語言（留空：查看目前的）",
                    "zh-Hans": "语言（留空：查看当前的）"},
    "help": {"en": "How to use the bot", "zh-Hant": "使用說明", "zh-Hans": "使用说明"},
    "help.topic": {"en": "A command, e.g. r or st",
                   "zh-Hant": "指令，例如 r 或 st", "zh-Hans": "指令，例如 r 或 st"},
    # replies of the adapter itself (not of the core)
    "reply.none": {"en": "(nothing to report)", "zh-Hant": "（沒有可回覆的內容）",
                   "zh-Hans": "（没有可回复的内容）"},
    "reply.error": {"en": "Something went wrong; please try again later.",
                    "zh-Hant": "出了點問題，請稍後再試。",
                    "zh-Hans": "出了点问题，请稍后再试。"},
}


def text(key: str) -> locale_str:
    """A translatable description: English default, translations by key."""
    return locale_str(STRINGS[key]["en"], key=key)


def reply(key: str, locale: Locale | None) -> str:
    """An adapter reply in the user's client language."""
    lang = DISCORD_LOCALES.get(locale, "en") if locale is not None else "en"
    return STRINGS[key].get(lang, STRINGS[key]["en"])


class CommandTranslator(app_commands.Translator):
    """Gives Discord the zh-TW / zh-CN descriptions at sync time."""

    async def translate(self, string: locale_str, locale: Locale,
                        context: TranslationContextTypes) -> str | None:
        lang = DISCORD_LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or lang == "en" or key not in STRINGS:
            return None
        return STRINGS[key].get(lang)

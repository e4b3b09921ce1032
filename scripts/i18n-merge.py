#!/usr/bin/env python3
"""Merge keys into i18n catalogues without clobbering concurrent edits.

Usage: scripts/i18n-merge.py <lang> <json-file-with-partial-catalogue>
Deep-merges the partial catalogue into i18n/<lang>.json (re-read right before writing).
"""
import json, sys, os

def merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        else:
            a[k] = v
    return a

lang, partial = sys.argv[1], sys.argv[2]
path = os.path.join(os.path.dirname(__file__), '..', 'i18n', f'{lang}.json')
with open(partial, encoding='utf-8') as f:
    add = json.load(f)
with open(path, encoding='utf-8') as f:
    cat = json.load(f)
merge(cat, add)
tmp = path + '.tmp'
with open(tmp, 'w', encoding='utf-8') as f:
    json.dump(cat, f, ensure_ascii=False, indent=2)
    f.write('\n')
os.replace(tmp, path)

//! JSON Schemas of the types whose serde form is written by hand (feature `schema`): the rest
//! derive `schemars::JsonSchema` next to their serde derives. The npm package's TypeScript
//! declarations and its `scenario.schema.json` are generated from these (docs/rules/README.md
//! decision 8).

use alloc::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::error::{Error, ErrorCode, Path};
use crate::eru::Capacity;
use crate::estimate::models::ModelRange;
use crate::resource::ResourceList;

/// A Kubernetes quantity as a scenario gives it: a number, or a string such as `"500m"`,
/// `"1.5"`, `"16Gi"`, `"1e3"`. Fields read by [`crate::resource::bytes`] take one too.
pub struct Quantity;

impl JsonSchema for Quantity {
    fn schema_name() -> Cow<'static, str> {
        "Quantity".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A Kubernetes quantity: a number, or a string such as `\"500m\"`, `\"1.5\"`, `\"16Gi\"`, `\"1e3\"`.",
            "type": ["number", "string"]
        })
    }
}

/// A map of [`Quantity`]s (`numaMemory`, `volumes`).
pub struct QuantityMap;

impl JsonSchema for QuantityMap {
    fn schema_name() -> Cow<'static, str> {
        "QuantityMap".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "additionalProperties": g.subschema_for::<Quantity>()
        })
    }
}

impl JsonSchema for ResourceList {
    fn schema_name() -> Cow<'static, str> {
        "ResourceList".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Resource name (`cpu`, `memory`, `pods`, `nvidia.com/gpu`, ...) to quantity.",
            "type": "object",
            "additionalProperties": g.subschema_for::<Quantity>()
        })
    }
}

impl JsonSchema for Capacity {
    fn schema_name() -> Cow<'static, str> {
        "Capacity".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "New instances a node can take: a count or `\"unlimited\"`.",
            "anyOf": [
                { "type": "integer", "minimum": 0 },
                { "const": "unlimited" }
            ]
        })
    }
}

impl JsonSchema for ModelRange {
    fn schema_name() -> Cow<'static, str> {
        "ModelRange".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let q = g.subschema_for::<Quantity>();
        json_schema!({
            "description": "One resource's range of a grade: `min` inclusive, `max` exclusive, in the resource's quantities.",
            "type": "object",
            "properties": { "name": { "type": "string" }, "min": q.clone(), "max": q },
            "required": ["name", "min", "max"],
            "additionalProperties": false
        })
    }
}

impl JsonSchema for ErrorCode {
    fn schema_name() -> Cow<'static, str> {
        "ErrorCode".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: alloc::vec::Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        json_schema!({
            "description": "The stable machine-readable code of an error.",
            "enum": codes
        })
    }
}

impl JsonSchema for Path {
    fn schema_name() -> Cow<'static, str> {
        "Path".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Where the value sits in the input, written `clusters[2].weight`.",
            "type": "string"
        })
    }
}

impl JsonSchema for Error {
    fn schema_name() -> Cow<'static, str> {
        "Problem".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An error: its stable code, where the offending value sits, and a message a user can act on.",
            "type": "object",
            "properties": {
                "code": g.subschema_for::<ErrorCode>(),
                "path": g.subschema_for::<Path>(),
                "message": { "type": "string" }
            },
            "required": ["code", "path", "message"],
            "additionalProperties": false
        })
    }
}

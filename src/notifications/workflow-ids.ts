// Workflow ids of deliveries, shared by the workflows and the API (no I/O, safe in workflow code):
// one per delivery and replay, so a delivery is never worked by two workflows at once.
export const deliveryWorkflowId = (delivery: { id: string; replays: number }) =>
  `notification-delivery-${delivery.id}-${delivery.replays}`;
